import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { OrderPage } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** One page of the user's orders, newest first (goods named in the UI's language). */
export function useOrders(page: number, pageSize: number) {
  const { i18n } = useTranslation();
  const params = { page, pageSize };
  return useQuery({
    queryKey: queryKeys.commerce.orders(params, i18n.language),
    queryFn: () => api<OrderPage>("/api/v1/store/pay_order_list", { params: { ...params, source: 0 } }),
    enabled: useAccountReady(),
    placeholderData: keepPreviousData,
  });
}
