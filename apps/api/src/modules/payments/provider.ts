/**
 * The payment provider adapter (ARCHITECTURE §4): `mock-alipay` (a small gateway inside the server,
 * the default) and `alipay` (the official SDK). Both are asked the same questions, and their
 * notifications go through the same verification code.
 */

/** Where providers post their asynchronous notifications (ARCHITECTURE §4). */
export const NOTIFY_PATH = "/voice_yuelu/api/v1/pay/notify/alipay";

/** What a provider says about one of its trades. */
export type ProviderTradeState =
  /** no trade yet, or not scanned (Alipay: ACQ.TRADE_NOT_EXIST) */
  | { status: "NOT_FOUND" }
  /** scanned, waiting for the payer */
  | { status: "WAIT_BUYER_PAY" }
  | { status: "TRADE_SUCCESS" | "TRADE_FINISHED"; totalAmount: string; tradeNo: string }
  | { status: "TRADE_CLOSED" };

export interface ProviderTrade {
  /** the provider order number (out_trade_no) */
  outTradeNo: string;
  /** the merchant order number the payUrl names */
  orderNumber: string;
  amountFen: number;
  subject: string;
  notifyUrl: string;
  expiresAt: Date;
  /** the public origin the payer reaches this install at (PUBLIC_URL, or the request's origin) */
  origin: string;
}

export interface ProviderRefund {
  /** the provider order number of the paid trade (out_trade_no) */
  outTradeNo: string;
  amountFen: number;
  /** the refund's own number (Alipay's out_request_no): one per order, so a retried refund is the same refund */
  refundRequestNo: string;
  reason: string;
}

export interface PaymentProvider {
  readonly name: "mock-alipay" | "alipay" | "none";
  /** Creates (or re-creates) the provider trade; answers the URL the QR encodes. */
  precreate(trade: ProviderTrade): Promise<{ payUrl: string }>;
  query(outTradeNo: string): Promise<ProviderTradeState>;
  /**
   * Gives a paid trade's money back in full (the operator console's refund). Idempotent per
   * `refundRequestNo`: asking again after a success succeeds without refunding twice. Throws when the
   * provider refuses (the trade is not paid, or the provider answered an error).
   */
  refund(refund: ProviderRefund): Promise<void>;
  /**
   * Checks a notification: its RSA2 signature with the provider's public key, and that it is meant
   * for our app id. Only then is any field of it believed.
   */
  verifyNotification(params: Record<string, string>): boolean;
}

/**
 * PAYMENT_PROVIDER=none (a production install's default): nothing can be paid. execute_payment answers
 * 60010 before any order is made; no notification is ever believed.
 */
export const noPaymentProvider: PaymentProvider = {
  name: "none",
  async precreate() {
    throw new Error("no payment provider is configured");
  },
  async query() {
    return { status: "NOT_FOUND" };
  },
  async refund() {
    throw new Error("no payment provider is configured");
  },
  verifyNotification() {
    return false;
  },
};
