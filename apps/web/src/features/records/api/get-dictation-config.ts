import { useQuery } from "@tanstack/react-query";
import type { DictationConfiguration } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { DOWNLOAD_POLL_MS, isDownloading } from "../lib/languages.ts";

/**
 * Which languages have an engine ready, downloading, missing or failed (ARCHITECTURE §7), the
 * speaker maximum, the length limit. Keyed by language: a language's `missing` sentence comes in
 * the UI's language. While a model downloads it is asked for again every 5 s, so the percentage
 * moves and the language becomes selectable when the download is done.
 */
export function useDictationConfig({ enabled = true }: { enabled?: boolean } = {}) {
  const { i18n } = useTranslation();
  return useQuery({
    enabled,
    queryKey: queryKeys.dictationConfig(i18n.language),
    queryFn: () => api<DictationConfiguration>("/api/v1/dictation/configuration"),
    staleTime: 5 * 60_000,
    refetchInterval: (query) => (isDownloading(query.state.data) ? DOWNLOAD_POLL_MS : false),
  });
}
