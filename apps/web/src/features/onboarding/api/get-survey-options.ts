import { useQuery } from "@tanstack/react-query";
import type { InfoCollect } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** Spec §3 survey options; each option's `name` comes in the UI's language, its `value` is the same in all. */
export function useSurveyOptions() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.surveyOptions(i18n.language),
    queryFn: () => api<InfoCollect>("/api/v1/info_collect"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
