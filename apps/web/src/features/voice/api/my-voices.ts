import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { voicePaths } from "./paths.ts";
import { useProgressPoll } from "./progress.ts";
import type { MyVoice, MyVoiceList } from "./types.ts";

/** My voices, newest first. */
export function useMyVoices() {
  return useQuery({
    queryKey: queryKeys.voice.myVoices,
    queryFn: () => api<MyVoiceList>(voicePaths.voices),
    enabled: useAccountReady(),
  });
}

/**
 * Polls the analysis of some voices until none is queued or analysing; when one ends the list is
 * fetched again (its profile, preview and sample come with it) and so is today's quota (a failed
 * analysis gives its work back).
 */
export function useVoiceProgress(voiceIds: readonly number[]) {
  return useProgressPoll({
    keyOf: queryKeys.voice.voiceProgress,
    path: voicePaths.voiceProgress,
    param: "voiceIds",
    ids: voiceIds,
    refresh: [queryKeys.voice.myVoices, queryKeys.voice.quota],
  });
}

export function useRenameVoice() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ voiceId, name }: { voiceId: number; name: string }) =>
      api<MyVoice>(voicePaths.renameVoice, { data: { voiceId, name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.voice.myVoices }),
  });
}

export function useDeleteVoice() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (voiceId: number) => api<{ voiceId: number }>(voicePaths.deleteVoice, { data: { voiceId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.voice.myVoices }),
  });
}
