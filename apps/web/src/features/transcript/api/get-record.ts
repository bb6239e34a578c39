import { useQuery } from "@tanstack/react-query";
import type { AudioRecord } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** One record; silent: the detail page shows 30001 as its own "not found" state, not a toast. */
export function useRecord(fileId: number | null) {
  return useQuery({
    queryKey: queryKeys.records.detail(fileId ?? 0),
    queryFn: () =>
      api<AudioRecord>("/api/v3/audio/record/get_record_by_id", { params: { fileId: fileId ?? 0 }, silent: true }),
    enabled: fileId !== null,
  });
}
