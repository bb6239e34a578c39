import { useQuery } from "@tanstack/react-query";
import type { VoiceWork } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isTaskRunning } from "@/lib/task-phase.ts";
import { ttsPaths } from "./paths.ts";

/**
 * The latest sung and converted songs (the voice pages' works), shown beside 'my works' so every work
 * made from a voice is in one place; refreshed while one is still being made.
 */
export function useSongWorks(pageSize: number) {
  const { i18n } = useTranslation();
  const params = { page: 1, pageSize };
  return useQuery({
    queryKey: queryKeys.voice.workList("all", params, i18n.language),
    queryFn: () => api<{ total: number; list: VoiceWork[] }>(ttsPaths.songWorks, { params, silent: true }),
    enabled: useAccountReady(),
    refetchInterval: (q) => (q.state.data?.list.some((w) => isTaskRunning(w.status)) ? 3000 : false),
  });
}
