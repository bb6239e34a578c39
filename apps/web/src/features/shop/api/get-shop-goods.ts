import { useQuery } from "@tanstack/react-query";
import type { PayGoods, ShopGoodsPage } from "@yuelu/contracts";
import { PAGE_SIZE_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * The shop's two sections (public catalogues, named in the UI's language). Spec §9: the shop's page
 * size is 9999 — one page holds everything. Failures are only logged (spec §8).
 */
export function useShopGoods() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.shop.goods(i18n.language),
    queryFn: () =>
      api<ShopGoodsPage>("/api/v1/store/goods_list", {
        method: "POST",
        data: { page: 1, pageSize: PAGE_SIZE_MAX },
        silent: true,
      }),
    staleTime: 5 * 60_000,
  });
}

/** 'Buy directly': pay_goods_list without goodsType lists the shop's cash goods (duration cards). */
export function useCashGoods() {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.shop.cashGoods(i18n.language),
    queryFn: () => api<PayGoods[]>("/api/v1/store/pay_goods_list", { params: { source: 0 }, silent: true }),
    staleTime: 5 * 60_000,
  });
}
