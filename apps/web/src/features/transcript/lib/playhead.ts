/**
 * The player's position (ms) as a tiny store, set on every animation frame while the record plays. Rows read
 * it through useSyncExternalStore (hooks/use-playhead.ts): only the playing row listens, so following the
 * words re-renders that row alone, never the list.
 */
export interface Playhead {
  get: () => number;
  set: (ms: number) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createPlayhead(): Playhead {
  let ms = 0;
  const listeners = new Set<() => void>();
  return {
    get: () => ms,
    set: (next) => {
      if (next === ms) return;
      ms = next;
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
