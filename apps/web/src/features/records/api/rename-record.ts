import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

export function useRenameRecord() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ fileId, fileName }: { fileId: number; fileName: string }) =>
      api<unknown>("/api/v1/audio/record/update_record", { data: { fileId, fileName } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.records.all }),
  });
}
