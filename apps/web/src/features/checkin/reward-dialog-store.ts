import { useSyncExternalStore } from "react";

let open = false;
const listeners = new Set<() => void>();
const set = (next: boolean) => {
  open = next;
  for (const l of listeners) l();
};

/** The reward dialog (check-in, tasks, gift codes) opens from the header or by itself after onboarding. */
export const rewardDialog = { open: () => set(true), close: () => set(false) };

export function useRewardDialogOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
