import type { ExecutePaymentResult } from "@yuelu/contracts";
import { TradeStatus } from "@yuelu/contracts/constants";
import { describe, expect, it } from "vitest";
import { isFinalTradeStatus, orderOf, type PayState, payReducer } from "./pay-state.ts";

const order: ExecutePaymentResult = {
  orderNumber: "YL1001",
  payUrl: "http://localhost/mock-alipay/pay/YL1001",
  tradeStatus: TradeStatus.Created,
  expireTime: 1000,
};
const open: PayState = { phase: "open", order, scanned: false };

describe("the payment order's states (spec §4)", () => {
  it("issuing a new order forgets the old one; a refresh keeps it on screen", () => {
    expect(payReducer(open, { type: "issue", refresh: false })).toEqual({ phase: "issuing", order: null });
    expect(payReducer(open, { type: "issue", refresh: true })).toEqual({ phase: "issuing", order });
  });

  it("-1 is payable, 0 is scanned and stays scanned", () => {
    const issued = payReducer({ phase: "issuing", order: null }, { type: "issued", order, now: 10 });
    expect(issued).toEqual(open);
    const scanned = payReducer(issued, { type: "polled", tradeStatus: TradeStatus.Scanned, now: 20 });
    expect(scanned).toEqual({ phase: "open", order, scanned: true });
    expect(payReducer(scanned, { type: "polled", tradeStatus: TradeStatus.Created, now: 30 })).toEqual(scanned);
  });

  it("1 and 2 are paid", () => {
    for (const tradeStatus of [TradeStatus.Paid, TradeStatus.Finished]) {
      expect(payReducer(open, { type: "polled", tradeStatus, now: 20 })).toEqual({ phase: "paid", order });
    }
  });

  it("3 at or after the expiry timed out; before it the payer cancelled (failed)", () => {
    const closed = (now: number) => payReducer(open, { type: "polled", tradeStatus: TradeStatus.Closed, now });
    expect(closed(1000)).toEqual({ phase: "closed", order, reason: "timeout" });
    expect(closed(999)).toEqual({ phase: "closed", order, reason: "failed" });
  });

  it("a re-issued QR for a paid order is paid at once; a late poll answer changes nothing", () => {
    const paid = { ...order, tradeStatus: TradeStatus.Paid };
    expect(payReducer({ phase: "issuing", order }, { type: "issued", order: paid, now: 1 }).phase).toBe("paid");
    const closed: PayState = { phase: "closed", order, reason: "timeout" };
    expect(payReducer(closed, { type: "polled", tradeStatus: TradeStatus.Created, now: 2 })).toBe(closed);
  });

  it("a failure keeps the order to refresh; reset forgets everything", () => {
    expect(payReducer(open, { type: "failed" })).toEqual({ phase: "error", order, unavailable: false });
    // no payment provider on this install (60010): nothing to retry
    expect(payReducer(open, { type: "failed", code: 60010 })).toEqual({ phase: "error", order, unavailable: true });
    expect(orderOf(payReducer(open, { type: "reset" }))).toBeNull();
  });

  it("polling stops at 1, 2 and 3 only", () => {
    expect([-1, 0, 1, 2, 3].map(isFinalTradeStatus)).toEqual([false, false, true, true, true]);
  });
});
