import { useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { ttsPaths } from "./paths.ts";

export function useDeleteWorks() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (taskIds: number[]) =>
      api<{ taskIds: number[] }>(ttsPaths.remove, { data: { taskIds: taskIds.join(",") } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...queryKeys.tts.all, "works"] }),
  });
}
