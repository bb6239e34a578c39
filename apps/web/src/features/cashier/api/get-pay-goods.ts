import { useQuery } from "@tanstack/react-query";
import type { PayGoods } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { api } from "@/lib/api-client.ts";
import { queryKeys } from "@/lib/query-keys.ts";

/**
 * The catalogue (public): membership plans (goodsType 1) or duration cards (0), named in the UI's
 * language, with the prices and labels the server computed from integer fen.
 */
export function usePayGoods(goodsType: number) {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: queryKeys.payGoods(goodsType, i18n.language),
    queryFn: () => api<PayGoods[]>("/api/v1/store/pay_goods_list", { params: { goodsType, source: 0 } }),
    staleTime: 5 * 60_000,
  });
}
