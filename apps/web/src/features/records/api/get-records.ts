import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RecordPage } from "@yuelu/contracts";
import type { RecordSortField, SortOrder } from "@yuelu/contracts/constants";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Which records the list shows: a folder id, every record, or those in no folder. */
export type FolderFilter = { kind: "all" } | { kind: "ungrouped" } | { kind: "folder"; menuId: string };

export interface RecordsQuery {
  page: number;
  pageSize: number;
  fileName: string;
  folder: FolderFilter;
  /** -1 = every status */
  fileStatus: number;
  /** the server sorts (issue 43): by name, when made, or length */
  sort: RecordSort;
}

export interface RecordSort {
  by: RecordSortField;
  order: SortOrder;
}

/** Newest first, as the list always was. */
export const DEFAULT_SORT: RecordSort = { by: "time", order: "desc" };

/** Spec §5: library queries drop any filter parameter whose value is -1. */
export function withoutUnset(params: Record<string, string | number | undefined>) {
  return Object.fromEntries(
    Object.entries(params).filter(([, v]) => v !== undefined && v !== "" && v !== -1 && v !== "-1"),
  ) as Record<string, string | number>;
}

export function getRecords(q: RecordsQuery): Promise<RecordPage> {
  const params = withoutUnset({
    page: q.page,
    pageSize: q.pageSize,
    fileName: q.fileName.trim(),
    fileStatus: q.fileStatus,
    sortBy: q.sort.by,
    order: q.sort.order,
    source: 0,
  });
  // Records in no folder have their own list (menuId 0); everything else is all_list, filtered.
  if (q.folder.kind === "ungrouped") return api<RecordPage>("/api/v3/audio/list", { params: { ...params, menuId: 0 } });
  const menuId = q.folder.kind === "folder" ? q.folder.menuId : -1;
  return api<RecordPage>("/api/v3/audio/all_list", { params: withoutUnset({ ...params, menuId }) });
}

export function useRecords(q: RecordsQuery) {
  return useQuery({
    queryKey: queryKeys.records.list(q),
    queryFn: () => getRecords(q),
    placeholderData: keepPreviousData,
  });
}
