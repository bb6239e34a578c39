import { useSyncExternalStore } from "react";

/**
 * A value kept outside React (module level) that components subscribe to with
 * useSyncExternalStore: the session, the upload queue, which app-wide dialog is open. One helper
 * instead of a hand-written listener set in each of them.
 */
export interface Store<T> {
  get(): T;
  /** replaces the value and notifies subscribers, unless it is the same (Object.is) */
  set(next: T | ((previous: T) => T)): void;
  /** replaces the value without notifying: for a swap made while rendering, before anyone reads it */
  replaceSilently(next: T): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      const resolved = typeof next === "function" ? (next as (previous: T) => T)(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      for (const listener of [...listeners]) listener();
    },
    replaceSilently(next) {
      value = next;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** An app-wide open/closed flag: any component may open the dialog it belongs to. */
export function createToggle() {
  const store = createStore(false);
  return {
    open: () => store.set(true),
    close: () => store.set(false),
    setOpen: (open: boolean) => store.set(open),
    useIsOpen: () => useStore(store),
    isOpen: () => store.get(),
  };
}
