import { useQueryClient } from "@tanstack/react-query";
import { refreshBalances } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";

/** Out of the recycle bin for good; a task still queued for one of them is refunded. */
export function useDeleteForever() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (fileIds: number[]) =>
      api<unknown>("/api/v1/audio/record/delete_forever", { data: { fileIds: fileIds.join(",") } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.records.all });
      refreshBalances(client);
    },
  });
}
