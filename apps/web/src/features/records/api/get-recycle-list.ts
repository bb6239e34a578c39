import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { RecyclePage } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

export interface RecycleQuery {
  page: number;
  pageSize: number;
}

export function useRecycleList(q: RecycleQuery) {
  return useQuery({
    queryKey: queryKeys.records.recycle(q),
    queryFn: () => api<RecyclePage>("/api/v3/audio/recycle_list", { params: { ...q, source: 0 } }),
    placeholderData: keepPreviousData,
  });
}
