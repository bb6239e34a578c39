import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { ttsPaths } from "./paths.ts";

export function useDeleteWorks() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (taskIds: number[]) =>
      api<{ taskIds: number[] }>(ttsPaths.remove, { data: { taskIds: taskIds.join(",") } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...queryKeys.tts.all, "works"] }),
  });
}
