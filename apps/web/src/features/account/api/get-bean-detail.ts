import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { BeanDetailPage } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** One page of the bean ledger, newest first: reason (in the UI's language), amount, balance after, time. */
export function useBeanDetail(page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { page, pageSize };
  return useQuery({
    queryKey: queryKeys.beans.detail(params, i18n.language),
    queryFn: () => api<BeanDetailPage>("/api/v1/store/bean_detail", { method: "POST", data: params, silent: true }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
  });
}
