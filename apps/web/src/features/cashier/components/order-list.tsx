import type { OrderView } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { type Column, DataTable } from "@/components/ui/data-table.tsx";
import { EmptyState } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { formatDateTime, formatFen } from "@/lib/format.ts";
import { useOrders } from "../api/get-orders.ts";
import { isPayable, ORDER_STATUS_LABEL, type OrderStatusKey, orderStatus } from "../lib/order-status.ts";
import "./order-list.css";
import "./state-chip.css";

const PAGE_SIZE = 10;
const TONE: Record<OrderStatusKey, string> = {
  created: "tone-wait",
  scanned: "tone-wait",
  paid: "tone-ok",
  finished: "tone-ok",
  closed: "tone-off",
  expired: "tone-off",
};

/** /personalInfo 'my orders': the user's orders, newest first, paged; an open one can be paid on /order. */
export function OrderList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const orders = useOrders(page, PAGE_SIZE);
  const now = Math.floor(Date.now() / 1000);
  const columns: Column<OrderView>[] = [
    {
      id: "goods",
      header: t("orders.goods"),
      kind: "name",
      cell: (o) => (
        <>
          <span title={o.goodsName}>{o.goodsName}</span>
          <span className="order-number" title={t("orders.number")}>
            {o.orderNumber}
          </span>
        </>
      ),
    },
    {
      id: "status",
      header: t("orders.status"),
      kind: "status",
      cell: (o) => {
        const status = orderStatus(o, now);
        return (
          <span className={`state-chip ${TONE[status]}`} data-testid="order-status">
            {t(ORDER_STATUS_LABEL[status])}
          </span>
        );
      },
    },
    {
      id: "amount",
      header: t("orders.amount"),
      label: t("orders.amount"),
      kind: "meta",
      cell: (o) => formatFen(o.amountFen, o.currency),
    },
    {
      id: "created",
      header: t("orders.created"),
      label: t("orders.created"),
      kind: "meta",
      cell: (o) => formatDateTime(o.createTime),
    },
    {
      id: "paid",
      header: t("orders.paidAt"),
      label: t("orders.paidAt"),
      kind: "meta",
      cell: (o) => (o.payTime > 0 ? formatDateTime(o.payTime) : null),
    },
    {
      id: "actions",
      header: "",
      kind: "actions",
      cell: (o) =>
        isPayable(orderStatus(o, now)) ? (
          <Link
            className="btn btn-sm btn-primary"
            to={`${paths.order}?${new URLSearchParams({ goodsId: String(o.goodsId), orderNumber: o.orderNumber })}`}
          >
            {t("orders.payNow")}
          </Link>
        ) : null,
    },
  ];
  return (
    <section>
      <h2 className="section-title">{t("orders.title")}</h2>
      <DataTable<OrderView, string>
        rows={orders.data?.list ?? []}
        rowId={(o) => o.orderNumber}
        rowName={(o) => o.goodsName}
        rowTestId={(id) => `order-${id}`}
        columns={columns}
        status={{ isPending: orders.isPending, isError: orders.isError, retry: () => void orders.refetch() }}
        empty={<EmptyState icon="¥" text={t("orders.empty")} />}
        pagination={{ page, pageSize: PAGE_SIZE, total: orders.data?.total ?? 0, onPage: setPage }}
        testId="order-list"
        phoneLabels
      />
    </section>
  );
}
