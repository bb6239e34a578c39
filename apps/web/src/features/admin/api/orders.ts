import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminOrderDetail, AdminOrderRow, AdminRefundResult, AdminRequeryResult } from "@yuelu/contracts";
import type { TableQuery } from "@/hooks/use-table-state.ts";
import { useSubmitMutation } from "@/lib/use-submit-mutation.ts";
import { adminApi, adminKeys } from "./client.ts";
import { adminPaths } from "./paths.ts";
import { useAdminList } from "./use-admin-list.ts";

export const ORDER_FILTERS = ["tradeStatus", "refunded", "user", "goodsId", "orderNumber", "from", "to"] as const;
export type OrderFilter = (typeof ORDER_FILTERS)[number];

/** GET /admin/orders. */
export function useOrders(query: TableQuery & Record<OrderFilter, string>) {
  return useAdminList<AdminOrderRow>("orders", adminPaths.orders, query);
}

/** GET /admin/orders/:orderNumber: the order, its card and its payment notifications. */
export function useOrder(orderNumber: string | null) {
  return useQuery({
    queryKey: adminKeys.item("orders", orderNumber ?? ""),
    queryFn: () => adminApi<AdminOrderDetail>(adminPaths.order(orderNumber ?? "")),
    enabled: Boolean(orderNumber),
  });
}

/** POST /admin/orders/:orderNumber/requery: ask the provider now and apply its answer. */
export function useRequery() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: (orderNumber: string) =>
      adminApi<AdminRequeryResult>(adminPaths.orderAction(orderNumber, "requery"), { method: "POST", data: {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.area("orders") }),
  });
}

/** POST /admin/orders/:orderNumber/refund: refund at the provider and take back what the order granted. */
export function useRefund() {
  const client = useQueryClient();
  return useSubmitMutation({
    mutationFn: ({ orderNumber, reason }: { orderNumber: string; reason: string }) =>
      adminApi<AdminRefundResult>(adminPaths.orderAction(orderNumber, "refund"), { method: "POST", data: { reason } }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.area("orders") });
      void client.invalidateQueries({ queryKey: adminKeys.area("users") });
    },
  });
}
