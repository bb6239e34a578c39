import { useCallback, useMemo, useState } from "react";

export interface Selection<Id extends number | string = number> {
  /** the picked ids that are on the page */
  selected: Id[];
  /** every row of the page is picked */
  all: boolean;
  /** some, not all */
  some: boolean;
  has: (id: Id) => boolean;
  toggle: (id: Id, on: boolean) => void;
  toggleAll: (on: boolean) => void;
  clear: () => void;
}

/** Row selection of one page of a list: ids not on the page do not count. */
export function useSelection(visibleIds: number[]): Selection {
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const key = visibleIds.join(",");
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the ids' content
  const selected = useMemo(() => visibleIds.filter((id) => picked.has(id)), [key, picked]);
  const all = visibleIds.length > 0 && selected.length === visibleIds.length;
  const some = selected.length > 0 && !all;

  const toggle = useCallback((id: number, on: boolean) => {
    setPicked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the ids' content
  const toggleAll = useCallback((on: boolean) => setPicked(on ? new Set(visibleIds) : new Set()), [key]);
  const clear = useCallback(() => setPicked(new Set()), []);
  const has = useCallback((id: number) => picked.has(id), [picked]);
  return { selected, all, some, toggle, toggleAll, clear, has };
}
