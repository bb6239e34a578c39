import { createSign, randomInt } from "node:crypto";
import { StatusCode } from "@yuelu/contracts";
import { type Db, likeLiteral, type MockAlipayTradeModel } from "@yuelu/db";
import { AppError, alipayAmount, type Clock } from "@yuelu/domain";
import type { AlipaySdk } from "alipay-sdk";
import { newAlipaySdk } from "../alipay-sdk.ts";
import type { PaymentProvider, ProviderRefund, ProviderTrade, ProviderTradeState } from "../provider.ts";
import type { MockAlipayKeys } from "./keys.ts";

/**
 * `mock-alipay`: a small Alipay inside the server, for laptops, demos and tests. It keeps its own
 * trades (table mock_alipay_trades), serves a phone-sized cashier page at the payUrl, and when a
 * trade is paid it sends an asynchronous notification in Alipay's format, RSA2-signed with its own
 * key, to the notification endpoint — retrying with backoff until it answers "success", as Alipay
 * does — so the real verification path always runs.
 */

/** When the next delivery is tried after the n-th failure (Alipay: 4 m, 10 m, 10 m, 1 h, 2 h, 6 h, 15 h; shortened). */
export const NOTIFY_BACKOFF_MS = [2_000, 10_000, 30_000, 120_000, 600_000, 3_600_000, 6 * 3_600_000];

export type MockTradeStatus = "WAIT_SCAN" | "WAIT_BUYER_PAY" | "TRADE_SUCCESS" | "TRADE_CLOSED";

/** Posts a signed notification and answers the endpoint's response body ("success" means delivered). */
export type NotificationDelivery = (params: Record<string, string>) => Promise<string>;

/** Alipay's signature: RSA-SHA256 over the sorted `key=value` pairs (sign and sign_type excluded), base64. */
export function signAlipayParams(params: Record<string, string>, privateKey: string): string {
  const content = Object.keys(params)
    .filter((k) => k !== "sign" && k !== "sign_type" && params[k] !== "")
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
  return createSign("RSA-SHA256").update(content, "utf8").sign(privateKey, "base64");
}

/** Alipay's time format in its notifications: 'yyyy-MM-dd HH:mm:ss' (Beijing time). */
function alipayTime(date: Date): string {
  return new Intl.DateTimeFormat("sv-SE", {
    timeZone: "Asia/Shanghai",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).format(date);
}

export class MockAlipayGateway implements PaymentProvider {
  readonly name = "mock-alipay" as const;
  private verifierSdk?: AlipaySdk;
  private deliver?: NotificationDelivery;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly db: Db,
    private readonly keys: MockAlipayKeys,
    private readonly options: {
      clock: Clock;
      log: { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
    },
  ) {}

  /** The merchant side verifies notifications with the official SDK, exactly as with real Alipay (made at first use). */
  private get verifier(): AlipaySdk {
    this.verifierSdk ??= newAlipaySdk({
      appId: this.keys.appId,
      privateKey: this.keys.merchantPrivateKey,
      alipayPublicKey: this.keys.gatewayPublicKey,
    });
    return this.verifierSdk;
  }

  get appId(): string {
    return this.keys.appId;
  }

  /** Where notifications go (set once the HTTP app is ready: it posts them to the app itself). */
  startDelivery(deliver: NotificationDelivery, options: { catchUp?: boolean } = {}): void {
    this.deliver = deliver;
    if (options.catchUp !== false) this.deliverSoon(); // notifications a restart interrupted
  }

  /**
   * Delivers what is due in the background. A failed pass (the database going away while the server stops)
   * is logged, never an unhandled rejection: the next pass or the buyer's polling settles the order.
   */
  private deliverSoon(): void {
    this.deliverDue().catch((err) => this.options.log.error({ err }, "mock-alipay: delivery failed"));
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  // ── the provider side (what our order code asks) ──

  async precreate(trade: ProviderTrade): Promise<{ payUrl: string }> {
    const data = {
      appId: this.keys.appId,
      subject: trade.subject,
      totalAmount: alipayAmount(trade.amountFen),
      notifyUrl: trade.notifyUrl,
    };
    await this.db.mockAlipayTrade.upsert({
      where: { outTradeNo: trade.outTradeNo },
      create: { outTradeNo: trade.outTradeNo, tradeNo: this.newTradeNo(), expiresAt: trade.expiresAt, ...data },
      update: { ...data, expiresAt: trade.expiresAt },
    });
    return { payUrl: `${trade.origin}/mock-alipay/pay/${encodeURIComponent(trade.orderNumber)}` };
  }

  async query(outTradeNo: string): Promise<ProviderTradeState> {
    const trade = await this.db.mockAlipayTrade.findUnique({ where: { outTradeNo } });
    if (!trade || trade.status === "WAIT_SCAN") return { status: "NOT_FOUND" };
    if (trade.status === "WAIT_BUYER_PAY") return { status: "WAIT_BUYER_PAY" };
    if (trade.status === "TRADE_SUCCESS") {
      return { status: "TRADE_SUCCESS", totalAmount: trade.totalAmount, tradeNo: trade.tradeNo };
    }
    return { status: "TRADE_CLOSED" };
  }

  verifyNotification(params: Record<string, string>): boolean {
    return params.app_id === this.keys.appId && this.verifier.checkNotifySignV2(params);
  }

  /**
   * Refunds a paid trade in full: like Alipay, a fully refunded trade reads TRADE_CLOSED from then on
   * (paid once, so `paidAt` stays: that is what tells a refunded trade from one closed unpaid), and a
   * notification not delivered yet is not sent any more. Refunding a refunded trade again succeeds.
   */
  async refund(refund: ProviderRefund): Promise<void> {
    const trade = await this.db.mockAlipayTrade.findUnique({ where: { outTradeNo: refund.outTradeNo } });
    if (!trade?.paidAt) throw new Error(`mock-alipay: trade ${refund.outTradeNo} was not paid`);
    if (alipayAmount(refund.amountFen) !== trade.totalAmount) {
      throw new Error(`mock-alipay: refund of ${alipayAmount(refund.amountFen)} for a trade of ${trade.totalAmount}`);
    }
    await this.db.mockAlipayTrade.updateMany({
      where: { outTradeNo: refund.outTradeNo, status: "TRADE_SUCCESS" },
      data: { status: "TRADE_CLOSED", closedAt: this.options.clock.now(), nextNotifyAt: null },
    });
  }

  // ── the payer's side (the cashier page and its JSON calls) ──

  /**
   * The current trade of a merchant order: its latest QR's (`<order>` or `<order>-<n>`), matched
   * exactly — the order number comes from the URL, and a `%` in it must never match another order.
   */
  async tradeOf(orderNumber: string): Promise<MockAlipayTradeModel> {
    const reissued = new RegExp(`^${orderNumber.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}-\\d+$`);
    const trades = await this.db.mockAlipayTrade.findMany({
      where: { OR: [{ outTradeNo: orderNumber }, { outTradeNo: { startsWith: `${likeLiteral(orderNumber)}-` } }] },
      orderBy: { createdAt: "desc" },
    });
    const trade = trades.find((t) => t.outTradeNo === orderNumber || reissued.test(t.outTradeNo));
    if (!trade) throw new AppError(StatusCode.OrderNotFound, {}, 404);
    return trade;
  }

  /** The payer opened the cashier page (scanned the QR): WAIT_SCAN → WAIT_BUYER_PAY. */
  async scan(orderNumber: string): Promise<MockAlipayTradeModel> {
    const trade = await this.payable(orderNumber);
    if (trade.status !== "WAIT_SCAN") return trade;
    return this.db.mockAlipayTrade.update({
      where: { outTradeNo: trade.outTradeNo },
      data: { status: "WAIT_BUYER_PAY", scannedAt: this.options.clock.now() },
    });
  }

  /** The payer paid: TRADE_SUCCESS, and the notification goes out at once (retried until delivered). */
  async pay(orderNumber: string): Promise<MockAlipayTradeModel> {
    const trade = await this.payable(orderNumber);
    const now = this.options.clock.now();
    const [paid] = await this.db.mockAlipayTrade.updateManyAndReturn({
      where: { outTradeNo: trade.outTradeNo, status: { in: ["WAIT_SCAN", "WAIT_BUYER_PAY"] } },
      data: { status: "TRADE_SUCCESS", scannedAt: trade.scannedAt ?? now, paidAt: now, nextNotifyAt: now },
    });
    if (!paid) throw new AppError(StatusCode.OrderNotPayable);
    this.deliverSoon();
    return paid;
  }

  /** The payer cancelled: TRADE_CLOSED (our order shows 'payment failed, please pay again'). */
  async fail(orderNumber: string): Promise<MockAlipayTradeModel> {
    const trade = await this.payable(orderNumber);
    const [closed] = await this.db.mockAlipayTrade.updateManyAndReturn({
      where: { outTradeNo: trade.outTradeNo, status: { in: ["WAIT_SCAN", "WAIT_BUYER_PAY"] } },
      data: { status: "TRADE_CLOSED", closedAt: this.options.clock.now() },
    });
    if (!closed) throw new AppError(StatusCode.OrderNotPayable);
    return closed;
  }

  /** A trade that can still be scanned or paid: not paid, not closed, not past its expiry (then it closes). */
  private async payable(orderNumber: string): Promise<MockAlipayTradeModel> {
    const trade = await this.tradeOf(orderNumber);
    if (trade.status === "TRADE_SUCCESS" || trade.status === "TRADE_CLOSED") {
      throw new AppError(StatusCode.OrderNotPayable);
    }
    if (trade.expiresAt <= this.options.clock.now()) {
      await this.db.mockAlipayTrade.updateMany({
        where: { outTradeNo: trade.outTradeNo, status: { in: ["WAIT_SCAN", "WAIT_BUYER_PAY"] } },
        data: { status: "TRADE_CLOSED", closedAt: this.options.clock.now() },
      });
      throw new AppError(StatusCode.OrderNotPayable);
    }
    return trade;
  }

  // ── notifications ──

  /** The notification of a paid trade, in Alipay's format, signed. The same notify_id on every retry. */
  notificationOf(trade: MockAlipayTradeModel): Record<string, string> {
    const paidAt = trade.paidAt ?? this.options.clock.now();
    const params: Record<string, string> = {
      notify_time: alipayTime(this.options.clock.now()),
      notify_type: "trade_status_sync",
      notify_id: `${trade.tradeNo}${paidAt.getTime()}`,
      app_id: trade.appId,
      charset: "utf-8",
      version: "1.0",
      sign_type: "RSA2",
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: "TRADE_SUCCESS",
      total_amount: trade.totalAmount,
      receipt_amount: trade.totalAmount,
      buyer_pay_amount: trade.totalAmount,
      subject: trade.subject,
      gmt_create: alipayTime(trade.createdAt),
      gmt_payment: alipayTime(paidAt),
    };
    return { ...params, sign: this.sign(params) };
  }

  sign(params: Record<string, string>): string {
    return signAlipayParams(params, this.keys.gatewayPrivateKey);
  }

  /**
   * Delivers every due notification once (each claimed first, so replicas do not send the same one
   * at the same moment); a failure is retried after the next backoff step.
   */
  async deliverDue(): Promise<void> {
    if (!this.deliver) return;
    const now = this.options.clock.now();
    const due = await this.db.mockAlipayTrade.findMany({
      where: { status: "TRADE_SUCCESS", notifiedAt: null, nextNotifyAt: { lte: now } },
      take: 100,
    });
    await Promise.all(due.map((trade) => this.deliverOne(trade)));
  }

  private async deliverOne(trade: MockAlipayTradeModel): Promise<void> {
    const now = this.options.clock.now();
    const lease = new Date(now.getTime() + 30_000);
    const claimed = await this.db.mockAlipayTrade.updateMany({
      where: { outTradeNo: trade.outTradeNo, notifiedAt: null, nextNotifyAt: trade.nextNotifyAt },
      data: { nextNotifyAt: lease },
    });
    if (claimed.count === 0) return;
    let answer = "";
    try {
      answer = (await this.deliver!(this.notificationOf(trade))).trim();
    } catch (error) {
      this.options.log.warn({ err: error, outTradeNo: trade.outTradeNo }, "mock-alipay: notification not delivered");
    }
    if (answer === "success") {
      await this.db.mockAlipayTrade.update({
        where: { outTradeNo: trade.outTradeNo },
        data: { notifiedAt: this.options.clock.now(), nextNotifyAt: null, notifyAttempts: { increment: 1 } },
      });
      return;
    }
    const attempts = trade.notifyAttempts + 1;
    const delay = NOTIFY_BACKOFF_MS[Math.min(attempts - 1, NOTIFY_BACKOFF_MS.length - 1)]!;
    if (attempts > NOTIFY_BACKOFF_MS.length) {
      this.options.log.error(
        { outTradeNo: trade.outTradeNo },
        "mock-alipay: gave up notifying (polling still settles it)",
      );
      await this.db.mockAlipayTrade.update({
        where: { outTradeNo: trade.outTradeNo },
        data: { nextNotifyAt: null, notifyAttempts: attempts },
      });
      return;
    }
    await this.db.mockAlipayTrade.update({
      where: { outTradeNo: trade.outTradeNo },
      data: { notifyAttempts: attempts, nextNotifyAt: new Date(this.options.clock.now().getTime() + delay) },
    });
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.deliverSoon();
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  private newTradeNo(): string {
    const stamp = this.options.clock.now().toISOString().replace(/\D/g, "").slice(0, 8);
    return `${stamp}2200${String(randomInt(0, 1e9)).padStart(9, "0")}${String(randomInt(0, 1e6)).padStart(6, "0")}`;
  }
}
