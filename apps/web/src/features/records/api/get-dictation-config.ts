import { useQuery } from "@tanstack/react-query";
import type { DictationConfiguration } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * Which languages have an installed engine (ARCHITECTURE §7), the speaker maximum, the length limit.
 * Keyed by language: a language's `missing` sentence comes in the UI's language.
 */
export function useDictationConfig() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.dictationConfig(i18n.language),
    queryFn: () => api<DictationConfiguration>("/api/v1/dictation/configuration"),
    staleTime: 5 * 60_000,
  });
}
