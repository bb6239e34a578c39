import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { VOICE_POLL_MS, type VoiceWorkKind } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isTaskRunning } from "@/lib/task-phase.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { voicePaths } from "./paths.ts";
import { useProgressPoll } from "./progress.ts";
import type { VoiceWork, VoiceWorkList } from "./types.ts";

/** My sung (or converted) songs, newest first; refreshed while one of the page is still being made. */
export function useVoiceWorks(kind: VoiceWorkKind, page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { kind, page, pageSize };
  return useQuery({
    queryKey: queryKeys.voice.workList(kind, params, i18n.language),
    queryFn: () => api<VoiceWorkList>(voicePaths.works, { params }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((w) => isTaskRunning(w.status)) ? VOICE_POLL_MS * 2 : false),
  });
}

/** Polls some works until none is queued or being made; one that ends refreshes the list and the quota. */
export function useWorkProgress(kind: VoiceWorkKind, workIds: readonly number[]) {
  return useProgressPoll({
    keyOf: queryKeys.voice.workProgress,
    path: voicePaths.workProgress,
    param: "workIds",
    ids: workIds,
    refresh: [queryKeys.voice.works(kind), queryKeys.voice.quota],
  });
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
