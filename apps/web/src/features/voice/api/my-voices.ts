import { useQuery, useQueryClient } from "@tanstack/react-query";
import { VOICE_POLL_MS } from "@yuelu/contracts/constants";
import { useEffect, useRef } from "react";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { isRunning } from "../lib/status.ts";
import { voicePaths } from "./paths.ts";
import type { MyVoice, MyVoiceList, VoiceProgressItem } from "./types.ts";

/** My voices, newest first. */
export function useMyVoices() {
  return useQuery({
    queryKey: queryKeys.voice.myVoices,
    queryFn: () => api<MyVoiceList>(voicePaths.voices),
    enabled: useAccountReady(),
  });
}

/**
 * Polls the analysis of some voices (every VOICE_POLL_MS) until none is queued or analysing; when
 * one ends the list is fetched again (its profile, preview and sample come with it) and so is
 * today's quota (a failed analysis gives its work back).
 */
export function useVoiceProgress(voiceIds: readonly number[]) {
  const ids = [...new Set(voiceIds)].sort((a, b) => a - b);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.voice.voiceProgress(ids),
    queryFn: () =>
      api<VoiceProgressItem[]>(voicePaths.voiceProgress, { params: { voiceIds: ids.join(",") }, silent: true }),
    enabled: ids.length > 0,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: (q) => {
      if (q.state.status === "error") return VOICE_POLL_MS * 3;
      const items = q.state.data;
      return !items || items.some((i) => isRunning(i.status)) ? VOICE_POLL_MS : false;
    },
  });
  const ended = useRef(new Set<number>());
  useEffect(() => {
    let changed = false;
    for (const item of query.data ?? []) {
      if (isRunning(item.status) || ended.current.has(item.id)) continue;
      ended.current.add(item.id);
      changed = true;
    }
    if (changed) {
      void client.invalidateQueries({ queryKey: queryKeys.voice.myVoices });
      void client.invalidateQueries({ queryKey: queryKeys.voice.quota });
    }
  }, [query.data, client]);
  return query;
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
