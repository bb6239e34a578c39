import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** To the recycle bin. */
export function deleteRecords(fileIds: number[]) {
  if (fileIds.length === 1) return api<unknown>("/api/v1/audio/record/delete_record", { data: { fileId: fileIds[0] } });
  return api<unknown>("/api/v1/audio/record/delete_batch", { data: { fileIds: fileIds.join(",") } });
}

export function useDeleteRecords() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: deleteRecords,
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
