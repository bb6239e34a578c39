import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export function useRestoreRecords() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (fileIds: number[]) =>
      api<unknown>("/api/v1/audio/record/restore", { data: { fileIds: fileIds.join(",") } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
