import type { AdminOrderDetail } from "@yuelu/contracts";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { formatDurationText } from "@/lib/format.ts";
import { useOrder, useRefund, useRequery } from "../api/orders.ts";
import { compactJson, formatInstant } from "../lib/format.ts";
import { formatYuan } from "../lib/money.ts";
import { tradeStatusKey } from "../lib/orders.ts";
import { OrderStatusTag } from "./order-status.tsx";
import { ReasonDialog } from "./reason-dialog.tsx";

/** One order: what it is, its timeline, its payment notifications; ask the provider again, or refund it. */
export function OrderDialog({ orderNumber, onClose }: { orderNumber: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const order = useOrder(orderNumber);
  return (
    <Dialog
      open={orderNumber !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("admin.orders.detailTitle", { orderNumber: orderNumber ?? "" })}
      wide
    >
      {order.data ? (
        <OrderBody order={order.data} />
      ) : order.isError ? (
        <ErrorState onRetry={() => void order.refetch()} />
      ) : (
        <Spinner />
      )}
    </Dialog>
  );
}

function OrderBody({ order }: { order: AdminOrderDetail }) {
  const { t } = useTranslation();
  const requery = useRequery();
  const refund = useRefund();
  const [refunding, setRefunding] = useState(false);
  const refundable = order.grantedAt !== null && order.refundedAt === null;
  const status = (n: number) => t(`admin.orders.statuses.${tradeStatusKey(n)}`);
  const rows: [string, ReactNode][] = [
    [
      t("admin.orders.tradeStatus"),
      <OrderStatusTag key="s" tradeStatus={order.tradeStatus} refunded={order.refundedAt !== null} />,
    ],
    [t("admin.field.user"), `${order.phone ?? "—"} (#${order.userId})`],
    [t("admin.orders.goods"), `${order.goodsName} #${order.goodsId}`],
    [t("admin.orders.amount"), formatYuan(order.amountFen)],
    [t("admin.orders.provider"), order.provider],
    [t("admin.orders.providerTradeNo"), order.providerTradeNo ?? "—"],
    [t("admin.orders.attempt"), String(order.attempt)],
    [t("admin.orders.createdAt"), formatInstant(order.createdAt)],
    [t("admin.orders.expiresAt"), formatInstant(order.expiresAt)],
    [t("admin.orders.scannedAt"), formatInstant(order.scannedAt) || "—"],
    [t("admin.orders.paidAt"), formatInstant(order.paidAt) || "—"],
    [t("admin.orders.grantedAt"), formatInstant(order.grantedAt) || "—"],
    [t("admin.orders.queriedAt"), formatInstant(order.queriedAt) || "—"],
  ];
  if (order.memberDays > 0) rows.push([t("admin.orders.memberDays"), String(order.memberDays)]);
  if (order.card) {
    rows.push([
      t("admin.orders.card"),
      `${formatDurationText(t, order.card.seconds)} · ${formatDurationText(t, order.card.remaining)} · ${formatInstant(order.card.expiresAt)}`,
    ]);
  }
  if (order.closedAt)
    rows.push([t("admin.orders.closedAt"), `${formatInstant(order.closedAt)} ${order.closeReason ?? ""}`]);
  if (order.refundedAt) {
    rows.push([t("admin.orders.refundedAt"), formatInstant(order.refundedAt)]);
    rows.push([t("admin.orders.refundReason"), order.refundReason]);
  }

  return (
    <div className="admin-form" data-testid="order-detail">
      <dl className="admin-facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <section>
        <h3 className="section-title">{t("admin.orders.notifications")}</h3>
        {order.notifications.length === 0 ? (
          <p className="muted">{t("admin.orders.noNotifications")}</p>
        ) : (
          <ul className="admin-list">
            {order.notifications.map((n) => (
              <li key={n.id}>
                <strong>{n.tradeStatus}</strong> <span className="muted">{formatInstant(n.receivedAt)}</span>{" "}
                <span className="admin-mono muted">{n.notifyId}</span>
                <details>
                  <summary>{t("admin.system.data")}</summary>
                  <pre className="admin-json">{compactJson(n.payload)}</pre>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
      <div className="dialog-actions">
        <Button
          variant="secondary"
          disabled={requery.isPending}
          onClick={() =>
            requery.mutate(order.orderNumber, {
              onSuccess: (r) => {
                toast.success(
                  `${t("admin.orders.requeryResult", { status: r.providerStatus, before: status(r.before), after: status(r.after) })}${
                    r.granted ? ` · ${t("admin.orders.requeryGranted")}` : ""
                  }`,
                );
              },
            })
          }
          data-testid="order-requery"
        >
          {requery.isPending ? t("admin.orders.requerying") : t("admin.orders.requery")}
        </Button>
        {refundable && (
          <Button variant="danger" onClick={() => setRefunding(true)} data-testid="order-refund">
            {t("admin.orders.refund")}
          </Button>
        )}
      </div>
      <ReasonDialog
        open={refunding}
        title={t("admin.orders.refundTitle", { orderNumber: order.orderNumber })}
        text={t("admin.orders.refundText", { amount: formatYuan(order.amountFen) })}
        confirmLabel={t("admin.orders.refund")}
        pendingLabel={t("admin.orders.refunding")}
        danger
        pending={refund.isPending}
        onClose={() => setRefunding(false)}
        onConfirm={(reason) =>
          refund.mutate(
            { orderNumber: order.orderNumber, reason },
            {
              onSuccess: () => {
                toast.success(t("admin.orders.refundDone"));
                setRefunding(false);
              },
            },
          )
        }
      />
    </div>
  );
}
