import { useQueryClient } from "@tanstack/react-query";
import type { TtsTask } from "@yuelu/contracts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { ttsPaths } from "./paths.ts";

export function useRenameWork() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ taskId, title }: { taskId: number; title: string }) =>
      api<TtsTask>(ttsPaths.rename, { data: { taskId, title } }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...queryKeys.tts.all, "works"] }),
  });
}
