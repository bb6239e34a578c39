import { useQueryClient } from "@tanstack/react-query";
import type { TtsTask } from "@yuelu/contracts";
import type { TtsFormat } from "@yuelu/contracts/constants";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { ttsPaths } from "./paths.ts";

export interface StartTtsInput {
  text: string;
  /** absent: the default voice of the text's language */
  promptId?: number;
  /** one of my ready voices (instead of promptId) */
  myVoiceId?: number;
  speed: number;
  pitch: number;
  volume: number;
  format: TtsFormat;
}

/** Queues a synthesis; the new work joins 'my works' and today's characters are charged. */
export function useStartTts() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (input: StartTtsInput) => api<TtsTask>(ttsPaths.start, { data: { ...input, source: 0 } }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.tts.all }),
  });
}
