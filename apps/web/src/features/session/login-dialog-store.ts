import { useSyncExternalStore } from "react";

let open = false;
const listeners = new Set<() => void>();

function set(next: boolean) {
  open = next;
  for (const l of listeners) l();
}

/** Anything can ask for the login dialog (header button, a page's "sign in to view"). */
export const loginDialog = {
  open: () => set(true),
  close: () => set(false),
};

export function useLoginDialogOpen(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => open,
  );
}
