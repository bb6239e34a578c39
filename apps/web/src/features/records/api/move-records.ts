import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Spec §7: move and move_batch take their parameters in the query string; menuId "0" = out of any folder. */
export function moveRecords(fileIds: number[], menuId: string) {
  if (fileIds.length === 1) {
    return api<unknown>("/api/v2/audio/move", { method: "POST", params: { fileId: fileIds[0], menuId } });
  }
  return api<unknown>("/api/v2/audio/move_batch", { method: "POST", params: { fileIds: fileIds.join(","), menuId } });
}

export function useMoveRecords() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ fileIds, menuId }: { fileIds: number[]; menuId: string }) => moveRecords(fileIds, menuId),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
