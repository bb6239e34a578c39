import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { VOICE_POLL_MS, type VoiceWorkKind } from "@yuelu/contracts/constants";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { isRunning } from "../lib/status.ts";
import { voicePaths } from "./paths.ts";
import type { VoiceProgressItem, VoiceWork, VoiceWorkList } from "./types.ts";

/** My sung (or converted) songs, newest first; refreshed while one of the page is still being made. */
export function useVoiceWorks(kind: VoiceWorkKind, page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { kind, page, pageSize };
  return useQuery({
    queryKey: queryKeys.voice.workList(kind, params, i18n.language),
    queryFn: () => api<VoiceWorkList>(voicePaths.works, { params }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((w) => isRunning(w.status)) ? VOICE_POLL_MS * 2 : false),
  });
}

/** Polls some works until none is queued or being made; one that ends refreshes the list and the quota. */
export function useWorkProgress(kind: VoiceWorkKind, workIds: readonly number[]) {
  const ids = [...new Set(workIds)].sort((a, b) => a - b);
  const client = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.voice.workProgress(ids),
    queryFn: () =>
      api<VoiceProgressItem[]>(voicePaths.workProgress, { params: { workIds: ids.join(",") }, silent: true }),
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
      void client.invalidateQueries({ queryKey: queryKeys.voice.works(kind) });
      void client.invalidateQueries({ queryKey: queryKeys.voice.quota });
    }
  }, [query.data, client, kind]);
  return query;
}

export function useRenameWork(kind: VoiceWorkKind) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ workId, title }: { workId: number; title: string }) =>
      api<VoiceWork>(voicePaths.renameWork, { data: { workId, title } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.voice.works(kind) }),
  });
}

export function useDeleteWorks(kind: VoiceWorkKind) {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (workIds: number[]) => api<{ workIds: number[] }>(voicePaths.deleteWorks, { data: { workIds } }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.voice.works(kind) }),
  });
}
