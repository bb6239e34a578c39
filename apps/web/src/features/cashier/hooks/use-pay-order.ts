import type { ExecutePaymentResult, PayGoods } from "@yuelu/contracts";
import { useEffect, useEffectEvent, useReducer, useRef, useState } from "react";
import { ApiError } from "@/lib/api-client.ts";
import { setBusy } from "@/lib/busy.ts";
import { announcePurchase, purchaseOf } from "@/lib/purchase-events.ts";
import { executePayment, usePayResult } from "../api/pay-order.ts";
import { initialPayState, type PayState, payReducer } from "../lib/pay-state.ts";

const nowSeconds = () => Math.floor(Date.now() / 1000);
const codeOf = (error: unknown) => (error instanceof ApiError ? error.code : undefined);
const newOpeningKey = () =>
  typeof crypto.randomUUID === "function"
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;

export interface PayOrder {
  state: PayState;
  /** re-issues the QR: the same order after a timeout or a failed payment; a new one after an error */
  refresh: () => void;
}

export interface PayOrderOptions {
  /** what is being bought; none yet: nothing is issued */
  goods: PayGoods | undefined;
  /** signed in with an active account: spec §5 makes no QR otherwise */
  enabled: boolean;
  /**
   * how the first QR of the goods is made (default: execute_payment, a new order); `clientKey` names
   * this opening and goods, so asking again (a retry, a re-render) gets the same order from the server
   */
  place?: (goodsId: number, clientKey: string) => Promise<ExecutePaymentResult>;
}

/**
 * Spec §4 Payment order, the cashier's and /order's shared engine: a QR on init and whenever the
 * goods change; polling every PAY_POLL_MS from the first QR until paid, closed, or the component
 * goes (the dialog closes, the page is left: usePayResult); a paid order announces the purchase once; a refresh
 * asks execute_payment for a new QR of the same order (same orderNumber, a new expiry).
 */
export function usePayOrder({ goods, enabled, place }: PayOrderOptions): PayOrder {
  const [state, dispatch] = useReducer(payReducer, initialPayState);
  const [attempt, setAttempt] = useState(0);
  const goodsId = goods?.goodsId ?? null;
  /** bumps whenever the goods' order is replaced: answers for an older one are dropped */
  const generation = useRef(0);

  /** this opening of the cashier (or the /order page): one order per goods however often it asks */
  const opening = useRef(newOpeningKey());
  const placeFirst = useEffectEvent((id: number) => {
    const clientKey = `${opening.current}:${id}`;
    return place ? place(id, clientKey) : executePayment(id, undefined, clientKey);
  });

  // A QR on init and when the goods change (a new order each time), or after a failed attempt.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry trigger
  useEffect(() => {
    generation.current += 1;
    if (!enabled || goodsId === null) {
      dispatch({ type: "reset" });
      return;
    }
    const mine = generation.current;
    dispatch({ type: "issue", refresh: false });
    placeFirst(goodsId).then(
      (order) => mine === generation.current && dispatch({ type: "issued", order, now: nowSeconds() }),
      (error: unknown) => mine === generation.current && dispatch({ type: "failed", code: codeOf(error) }),
    );
  }, [enabled, goodsId, attempt]);

  // Polling while the QR is payable; a new QR (refresh) or new goods poll anew (a new query key).
  const poll = usePayResult(goodsId, state.phase === "open" ? state.order : null);
  const polledStatus = poll.isFetchedAfterMount ? poll.data?.tradeStatus : undefined;
  const answeredAt = poll.dataUpdatedAt;
  useEffect(() => {
    // each answer, when it came: the issued order's own status was taken when it was issued
    if (polledStatus !== undefined)
      dispatch({ type: "polled", tradeStatus: polledStatus, now: Math.floor(answeredAt / 1000) });
  }, [polledStatus, answeredAt]);
  const refused = poll.error instanceof ApiError && poll.error.kind === "business";
  useEffect(() => {
    if (refused) dispatch({ type: "failed" });
  }, [refused]);

  // A QR waiting to be paid: the app's own prompts wait (lib/busy.ts).
  const waiting = state.phase === "open";
  useEffect(() => {
    setBusy("payment", waiting);
    return () => setBusy("payment", false);
  }, [waiting]);

  // The success event, once per order.
  const announced = useRef<string | null>(null);
  const paidOrder = state.phase === "paid" ? state.order.orderNumber : null;
  const announce = useEffectEvent((orderNumber: string) => {
    if (!goods || announced.current === orderNumber) return;
    announced.current = orderNumber;
    announcePurchase(purchaseOf(orderNumber, goods));
  });
  useEffect(() => {
    if (paidOrder) announce(paidOrder);
  }, [paidOrder]);

  const refresh = () => {
    if (goodsId === null || !enabled) return;
    if (state.phase === "error" && state.unavailable) return; // no provider: asking again changes nothing
    // A closed order gets a new QR of its own; after a failure (no QR, or a refused poll) a new order.
    if (state.phase !== "closed") {
      if (state.phase === "error") setAttempt((n) => n + 1);
      return;
    }
    const order = state.order;
    const mine = generation.current;
    dispatch({ type: "issue", refresh: true });
    executePayment(goodsId, order.orderNumber).then(
      (reissued) => mine === generation.current && dispatch({ type: "issued", order: reissued, now: nowSeconds() }),
      () => mine === generation.current && dispatch({ type: "failed" }),
    );
  };

  return { state, refresh };
}
