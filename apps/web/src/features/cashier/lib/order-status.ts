import type { OrderView } from "@yuelu/contracts";
import { TradeStatus } from "@yuelu/contracts/constants";

export type OrderStatusKey = "created" | "scanned" | "paid" | "finished" | "closed" | "expired";

/**
 * An order's status label (orders.status*): -1 awaiting payment, 0 scanned, 1 paid, 2 finished,
 * 3 closed. An open order past its expiry reads 'expired' (the server closes it at the next poll).
 */
export function orderStatus(order: Pick<OrderView, "tradeStatus" | "expireTime">, now: number): OrderStatusKey {
  switch (order.tradeStatus) {
    case TradeStatus.Paid:
      return "paid";
    case TradeStatus.Finished:
      return "finished";
    case TradeStatus.Closed:
      return "closed";
    default:
      if (order.expireTime > 0 && order.expireTime <= now) return "expired";
      return order.tradeStatus === TradeStatus.Scanned ? "scanned" : "created";
  }
}

export const ORDER_STATUS_LABEL: Record<OrderStatusKey, string> = {
  created: "orders.statusCreated",
  scanned: "orders.statusScanned",
  paid: "orders.statusPaid",
  finished: "orders.statusFinished",
  closed: "orders.statusClosed",
  expired: "orders.statusExpired",
};

/** Orders that can still be paid: resumable on /order. */
export const isPayable = (status: OrderStatusKey) => status === "created" || status === "scanned";
