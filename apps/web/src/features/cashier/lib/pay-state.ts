import type { ExecutePaymentResult } from "@yuelu/contracts";
import { StatusCode, TradeStatus } from "@yuelu/contracts/constants";

/**
 * Spec §4 Payment order, as the QR box sees it:
 * - idle: not signed in, so no QR is made (spec §5: 'log in to view');
 * - issuing: asking for a QR (a new order, or a new QR for `order` after a refresh);
 * - open: the QR is payable; `scanned` once the server answers 0 ('scan succeeded, pay promptly');
 * - paid: 1 or 2 — polling stops, the success event goes out;
 * - closed: 3 — polling stops; 'timeout' when the order's time ran out, 'failed' when the payer
 *   cancelled before that ('payment failed, please pay again'); a click re-issues the same order;
 * - error: no QR could be had (the API client toasted why); a click tries again — unless this
 *   install has no payment provider set up (60010, `unavailable`): then the box says so and nothing
 *   is clickable.
 */
export type PayState =
  | { phase: "idle" }
  | { phase: "issuing"; order: ExecutePaymentResult | null }
  | { phase: "open"; order: ExecutePaymentResult; scanned: boolean }
  | { phase: "paid"; order: ExecutePaymentResult }
  | { phase: "closed"; order: ExecutePaymentResult; reason: "timeout" | "failed" }
  | { phase: "error"; order: ExecutePaymentResult | null; unavailable: boolean };

export type PayEvent =
  | { type: "reset" }
  /** asking for a QR: a new order (the old one is forgotten), or a refresh of the current one */
  | { type: "issue"; refresh: boolean }
  | { type: "issued"; order: ExecutePaymentResult; now: number }
  /** `code`: the refusal's status code, when the server answered one */
  | { type: "failed"; code?: number }
  | { type: "polled"; tradeStatus: number; now: number };

export const initialPayState: PayState = { phase: "idle" };

export function orderOf(state: PayState): ExecutePaymentResult | null {
  return state.phase === "idle" ? null : state.order;
}

/** Polling stops at these: paid, finished, closed. */
export function isFinalTradeStatus(tradeStatus: number): boolean {
  return tradeStatus === TradeStatus.Paid || tradeStatus === TradeStatus.Finished || tradeStatus === TradeStatus.Closed;
}

/** 3 before the expiry is the payer's cancel; at or after it, the order timed out. */
function closedReason(order: ExecutePaymentResult, now: number): "timeout" | "failed" {
  return now >= order.expireTime ? "timeout" : "failed";
}

/** Where an order stands given a trade status (from issuing or from a poll). */
function withStatus(order: ExecutePaymentResult, tradeStatus: number, now: number, scanned: boolean): PayState {
  switch (tradeStatus) {
    case TradeStatus.Paid:
    case TradeStatus.Finished:
      return { phase: "paid", order };
    case TradeStatus.Closed:
      return { phase: "closed", order, reason: closedReason(order, now) };
    case TradeStatus.Scanned:
      return { phase: "open", order, scanned: true };
    default:
      return { phase: "open", order, scanned };
  }
}

export function payReducer(state: PayState, event: PayEvent): PayState {
  switch (event.type) {
    case "reset":
      return initialPayState;
    case "issue":
      return { phase: "issuing", order: event.refresh ? orderOf(state) : null };
    case "issued":
      return withStatus(event.order, event.order.tradeStatus, event.now, false);
    case "failed":
      return { phase: "error", order: orderOf(state), unavailable: event.code === StatusCode.PaymentUnavailable };
    case "polled":
      // A late answer for a state that no longer polls (closed, refreshed, paid) changes nothing.
      if (state.phase !== "open") return state;
      return withStatus(state.order, event.tradeStatus, event.now, state.scanned);
  }
}
