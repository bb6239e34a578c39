import { useQueryClient } from "@tanstack/react-query";
import type {
  AdminPayGoods,
  AdminPayGoodsCreate,
  AdminPayGoodsEdit,
  AdminShopGoods,
  AdminShopGoodsCreate,
  AdminShopGoodsEdit,
} from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export type PayGoodsFilter = "enabled" | "q";
export type ShopGoodsFilter = "enabled" | "q";

/** GET /admin/goods/pay: membership plans (goodsType 1) or duration cards (0). */
export function usePayGoods(goodsType: 0 | 1, query: TableQuery & Record<PayGoodsFilter, string>) {
  return useAdminList<AdminPayGoods>("catalogue", adminPaths.payGoods, { ...query, goodsType });
}

/** GET /admin/goods/shop: what the bean shop sells. */
export function useShopGoods(query: TableQuery & Record<ShopGoodsFilter, string>) {
  return useAdminList<AdminShopGoods>("catalogue", adminPaths.shopGoods, query);
}

/**
 * What a change of the catalogue makes stale: the console's tables, and the plans and goods this
 * browser caches for the cashier and the shop (an operator who opens them next sees the change).
 */
function useCatalogueChanged() {
  const client = useQueryClient();
  return () => {
    void client.invalidateQueries({ queryKey: adminKeys.area("catalogue") });
    void client.invalidateQueries({ queryKey: ["pay-goods"] });
    void client.invalidateQueries({ queryKey: ["shop"] });
    void client.invalidateQueries({ queryKey: queryKeys.commerce.all });
  };
}

/** POST /admin/goods/pay (create) or PATCH /admin/goods/pay/:goodsId (only the fields sent change). */
export function useSavePayGoods() {
  const changed = useCatalogueChanged();
  return useSubmitMutation({
    mutationFn: (save: { create: AdminPayGoodsCreate } | { goodsId: number; edit: AdminPayGoodsEdit }) =>
      "create" in save
        ? adminApi<AdminPayGoods>(adminPaths.payGoods, { method: "POST", data: save.create })
        : adminApi<AdminPayGoods>(adminPaths.payGoodsItem(save.goodsId), { method: "PATCH", data: save.edit }),
    onSuccess: changed,
  });
}

/** POST /admin/goods/shop (create) or PATCH /admin/goods/shop/:goodsId. */
export function useSaveShopGoods() {
  const changed = useCatalogueChanged();
  return useSubmitMutation({
    mutationFn: (save: { create: AdminShopGoodsCreate } | { goodsId: number; edit: AdminShopGoodsEdit }) =>
      "create" in save
        ? adminApi<AdminShopGoods>(adminPaths.shopGoods, { method: "POST", data: save.create })
        : adminApi<AdminShopGoods>(adminPaths.shopGoodsItem(save.goodsId), { method: "PATCH", data: save.edit }),
    onSuccess: changed,
  });
}

/** POST /admin/goods/{pay,shop}/reorder: the goods in the order shown; their sort becomes 1, 2, 3… */
export function useReorderGoods(kind: "pay" | "shop") {
  const changed = useCatalogueChanged();
  return useSubmitMutation({
    mutationFn: (goodsIds: number[]) =>
      adminApi<unknown>(kind === "pay" ? adminPaths.payGoodsReorder : adminPaths.shopGoodsReorder, {
        method: "POST",
        data: { goodsIds },
      }),
    onSuccess: changed,
  });
}
