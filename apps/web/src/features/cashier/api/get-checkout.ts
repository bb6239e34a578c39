import { useQuery } from "@tanstack/react-query";
import type { Checkout } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { useAccountReady } from "@/lib/account.ts";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/** The price detail of one goods (goods amount, discount, total) and the purchase notes; needs sign-in. */
export function useCheckout(goodsId: number | null) {
  const { i18n } = useTranslation();
  const ready = useAccountReady();
  return useQuery({
    queryKey: queryKeys.commerce.checkout(goodsId ?? 0, i18n.language),
    queryFn: () => api<Checkout>("/order/get_checkout", { params: { goodsId: goodsId ?? 0, source: 0 } }),
    enabled: ready && goodsId !== null,
  });
}
