/** What tables paged, sorted and filtered by the server share (the console's: docs/admin.md; page from 1, pageSize 1–100). */
export type SortOrder = "asc" | "desc";

/** The sizes the pager offers. */
export const PAGE_SIZES = [10, 20, 50, 100] as const;

/** How many pages `total` rows make at `pageSize` (at least 1, so an empty table reads 'page 1 of 1'). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}
