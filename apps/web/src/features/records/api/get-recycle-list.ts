import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client.ts";
import { recordKeys } from "./keys.ts";
import type { RecordPage } from "./types.ts";

export interface RecycleQuery {
  page: number;
  pageSize: number;
}

export function useRecycleList(q: RecycleQuery) {
  return useQuery({
    queryKey: recordKeys.recycle(q),
    queryFn: () => api<RecordPage>("/api/v3/audio/recycle_list", { params: { ...q, source: 0 } }),
    placeholderData: keepPreviousData,
  });
}
