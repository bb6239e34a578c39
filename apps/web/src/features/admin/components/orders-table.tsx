import type { AdminOrderRow } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { FilterBar } from "@/components/ui/filter-bar.tsx";
import { type PagedColumn, PagedTable } from "@/components/ui/paged-table.tsx";
import { useTableState } from "@/hooks/use-table-state.ts";
import { ORDER_FILTERS, type OrderFilter, useOrders } from "../api/orders.ts";
import { adminPath } from "../lib/areas.ts";
import { formatInstant } from "../lib/format.ts";
import { formatYuan } from "../lib/money.ts";
import { TRADE_STATUSES } from "../lib/orders.ts";
import { OrderDialog } from "./order-dialog.tsx";
import { OrderStatusTag } from "./order-status.tsx";

/** Every order: filtered by status, refund, user, goods, number and days; one opens its detail. */
export function OrdersTable() {
  const { t } = useTranslation();
  const table = useTableState<OrderFilter>({ sort: "createdAt", filters: ORDER_FILTERS });
  const orders = useOrders(table.query);
  const [open, setOpen] = useState<string | null>(null);

  const columns: PagedColumn<AdminOrderRow>[] = [
    {
      id: "orderNumber",
      header: t("admin.orders.orderNumber"),
      cell: (o) => (
        <button type="button" className="admin-link admin-mono" onClick={() => setOpen(o.orderNumber)}>
          {o.orderNumber}
        </button>
      ),
    },
    {
      id: "user",
      header: t("admin.field.user"),
      cell: (o) => <Link to={adminPath("users", o.userId)}>{o.phone ?? `#${o.userId}`}</Link>,
    },
    {
      id: "goods",
      header: t("admin.orders.goods"),
      cell: (o) => (
        <>
          {o.goodsName} <span className="muted">#{o.goodsId}</span>
        </>
      ),
    },
    {
      id: "amount",
      header: t("admin.orders.amount"),
      sort: "amountFen",
      numeric: true,
      cell: (o) => formatYuan(o.amountFen),
    },
    {
      id: "status",
      header: t("admin.orders.tradeStatus"),
      cell: (o) => <OrderStatusTag tradeStatus={o.tradeStatus} refunded={o.refundedAt !== null} />,
    },
    { id: "provider", header: t("admin.orders.provider"), cell: (o) => o.provider },
    {
      id: "createdAt",
      header: t("admin.orders.createdAt"),
      sort: "createdAt",
      cell: (o) => <span className="admin-nowrap">{formatInstant(o.createdAt)}</span>,
    },
    {
      id: "paidAt",
      header: t("admin.orders.paidAt"),
      sort: "paidAt",
      cell: (o) => <span className="admin-nowrap">{formatInstant(o.paidAt) || "—"}</span>,
    },
    {
      id: "actions",
      header: t("admin.table.actions"),
      cell: (o) => (
        <Button size="sm" variant="ghost" onClick={() => setOpen(o.orderNumber)}>
          {t("admin.act.details")}
        </Button>
      ),
    },
  ];

  return (
    <>
      <FilterBar
        testId="orders-filters"
        values={table.filters}
        onApply={table.setFilters}
        fields={[
          {
            name: "tradeStatus",
            label: t("admin.orders.tradeStatus"),
            type: "select",
            options: TRADE_STATUSES.map((s) => ({
              value: String(s.value),
              label: t(`admin.orders.statuses.${s.key}`),
            })),
          },
          {
            name: "refunded",
            label: t("admin.orders.refundFilter"),
            type: "select",
            options: [
              { value: "true", label: t("admin.orders.refunded") },
              { value: "false", label: t("admin.orders.notRefunded") },
            ],
          },
          { name: "user", label: t("admin.orders.userKey"), inputMode: "numeric" },
          { name: "orderNumber", label: t("admin.orders.orderNumberPrefix") },
          { name: "goodsId", label: t("admin.orders.goodsId"), inputMode: "numeric" },
          { name: "from", label: t("admin.field.from"), type: "date" },
          { name: "to", label: t("admin.field.to"), type: "date" },
        ]}
      />
      <PagedTable
        caption={t("admin.orders.title")}
        testId="orders-table"
        columns={columns}
        rowKey={(o) => o.orderNumber}
        rowTestId={(o) => `order-${o.orderNumber}`}
        result={orders}
        sort={table.query.sort}
        order={table.query.order}
        onSort={table.sortBy}
        pager={{ ...table.query, onPage: table.setPage, onPageSize: table.setPageSize }}
      />
      <OrderDialog orderNumber={open} onClose={() => setOpen(null)} />
    </>
  );
}
