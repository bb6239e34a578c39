import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { DurationCardPage, DurationDetail } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** One page of all the user's time cards (used up and expired ones too), the first to expire first. */
export function useTimeCards(page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { page, pageSize, all: 1 };
  return useQuery({
    queryKey: queryKeys.commerce.timeCards(params, i18n.language),
    queryFn: () =>
      api<DurationCardPage>("/api/v3/user/get_user_duration_card_list", { params: { ...params, source: 0 } }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
  });
}

/** The card time at a glance: left, granted, used, expiring within 30 days, by source. */
export function useDurationDetail() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.commerce.durationDetail(i18n.language),
    queryFn: () => api<DurationDetail>("/api/v3/user/get_duration_detail"),
    enabled: useAccountReady(),
  });
}
