import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../../lib/api-client.ts";
import { meKeys } from "../account/api.ts";

export interface SurveyOption {
  id: number;
  name: string;
  value: string;
}

export function useSurveyOptions() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: ["survey-options", i18n.language],
    queryFn: () => api<{ identityList: SurveyOption[]; channelList: SurveyOption[] }>("/api/v1/info_collect"),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useSaveSurvey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (answers: { identity?: string; channel?: string }) =>
      api("/api/v1/update_info_collect", { data: answers }),
    onSuccess: () => client.invalidateQueries({ queryKey: meKeys.info }),
  });
}

/** 'Skip' is what the spec submits for the parts a user closes the survey without answering. */
export const SKIP = "Skip";
