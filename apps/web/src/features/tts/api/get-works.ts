import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { TtsList } from "@yuelu/contracts";
import { TTS_POLL_MS } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isTaskRunning } from "@/lib/task-phase.ts";
import { ttsPaths } from "./paths.ts";

/** 'My works', newest first; refreshed while one of the page is still being made. */
export function useWorks(page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { page, pageSize };
  return useQuery({
    queryKey: queryKeys.tts.works(params, i18n.language),
    queryFn: () => api<TtsList>(ttsPaths.works, { params: { ...params, source: 0 } }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((w) => isTaskRunning(w.status)) ? TTS_POLL_MS * 2 : false),
  });
}
