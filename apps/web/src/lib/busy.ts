import { createStore } from "./create-store.ts";

/**
 * Work in progress that the app must not cover with a dialog of its own accord (an upload being sent,
 * a QR waiting to be paid): features say so here, and the automatic prompts (the daily check-in)
 * wait until nothing is busy and no dialog is open. One modal at a time.
 */
const busy = createStore<ReadonlySet<string>>(new Set());

export function setBusy(reason: string, on: boolean): void {
  busy.set((reasons) => {
    if (reasons.has(reason) === on) return reasons;
    const next = new Set(reasons);
    if (on) next.add(reason);
    else next.delete(reason);
    return next;
  });
}

/** True while a dialog is open or some work must not be interrupted. */
export function isInterruptible(): boolean {
  return busy.get().size === 0 && document.querySelector('[role="dialog"], [role="alertdialog"]') === null;
}
