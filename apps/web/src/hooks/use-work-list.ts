import { useState } from "react";

/**
 * What a works list (components/ui/work-list.tsx) keeps: its page, the work whose player is open,
 * and the work being renamed or deleted.
 */
export function useWorkListState<Work>() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<number | null>(null);
  const [renaming, setRenaming] = useState<Work | null>(null);
  const [deleting, setDeleting] = useState<Work | null>(null);
  return {
    page,
    setPage,
    renaming,
    setRenaming,
    deleting,
    setDeleting,
    /** a done work's player is open */
    playing: (id: number, done: boolean) => done && open === id,
    togglePlayer: (id: number) => setOpen(open === id ? null : id),
    /** a work was deleted: its player closes, and the last work of a later page goes back one page */
    removed: (id: number, shownOnPage: number) => {
      if (open === id) setOpen(null);
      if (shownOnPage === 1 && page > 1) setPage(page - 1);
    },
  };
}
