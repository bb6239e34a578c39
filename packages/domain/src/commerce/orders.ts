import { randomInt } from "node:crypto";
import { StatusCode, TradeStatus } from "@yuelu/contracts";
import type { OrderModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendNotice } from "../messages/notices.ts";
import { advanceTasks } from "../rewards/task-progress.ts";
import { addSeconds, businessDay, SECONDS } from "../time.ts";
import { transact } from "../transaction.ts";
import { extendMembership } from "../wallet/membership.ts";
import { CARD_VALIDITY, grantTimeCard } from "../wallet/time-cards.ts";
import { isMembership, sellableGoods } from "./catalogue.ts";
import { parseAlipayAmount } from "./money.ts";
import { purchaseMessage } from "./purchase-message.ts";

/**
 * Payment orders (docs/commerce.md). An order's tradeStatus: -1 created, 0 scanned, 1 paid,
 * 2 finished, 3 closed. Paying grants the goods exactly once, in the transaction that marks the order
 * paid (`settleOrder`); nothing else grants, and purchases are never refunded.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/** The states in which an order still waits for its payment. */
export const OPEN_TRADE_STATES: number[] = [TradeStatus.Created, TradeStatus.Scanned];

/** 'YL' + the local time to the second + 6 random digits: unique, sortable, safe in URLs. */
function newOrderNumber(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  return `YL${stamp}${String(randomInt(0, 1_000_000)).padStart(6, "0")}`;
}

/**
 * The provider's order number for the order's current QR: the order number itself for the first,
 * '<orderNumber>-<n>' for the n-th (a closed provider trade cannot be paid again, so a refresh after
 * a timeout opens a new one for the same order).
 */
export function providerOrderNumber(order: Pick<OrderModel, "orderNumber" | "attempt">): string {
  return order.attempt <= 1 ? order.orderNumber : `${order.orderNumber}-${order.attempt}`;
}

/** The order a provider order number belongs to. */
export function orderNumberOf(providerOrderNo: string): string {
  return providerOrderNo.replace(/-\d+$/, "");
}

/**
 * A new order for the goods at today's price, payable for PAY_ORDER_TTL_SECONDS. With the client's
 * key of one cashier opening (`clientKey`), asking again answers the order that key already placed
 * (`created: false`) — unique per user and key, so parallel asks make one order; the key names one
 * goods (another goods under it: 10002).
 */
export async function createOrder(
  ctx: Ctx,
  userId: number,
  goodsId: number,
  provider: string,
  clientKey?: string,
): Promise<{ order: OrderModel; created: boolean }> {
  const placed = async () => {
    if (!clientKey) return null;
    const order = await ctx.db.order.findUnique({ where: { userId_clientKey: { userId, clientKey } } });
    if (order && order.goodsId !== goodsId) throw AppError.invalid("clientKey", "already used for other goods");
    return order;
  };
  const earlier = await placed();
  if (earlier) return { order: earlier, created: false };
  const goods = await sellableGoods(ctx, goodsId);
  const now = ctx.clock.now();
  for (let attempt = 0; ; attempt++) {
    try {
      const order = await ctx.db.order.create({
        data: {
          orderNumber: newOrderNumber(now),
          userId,
          goodsId,
          amountFen: goods.priceFen,
          provider,
          expiresAt: addSeconds(now, ctx.config.PAY_ORDER_TTL_SECONDS),
          clientKey: clientKey ?? null,
        },
      });
      return { order, created: true };
    } catch (error) {
      if ((error as { code?: string }).code !== "P2002") throw error;
      // the same key placed by a parallel ask: that order is the answer
      const raced = await placed();
      if (raced) return { order: raced, created: false };
      // one order-number draw in a million per second collides: draw again
      if (attempt >= 3) throw error;
    }
  }
}

/** The caller's order for these goods; another user's or an unknown order is the same 60003 (it reveals nothing). */
export async function ownOrder(ctx: Pick<Ctx, "db">, userId: number, orderNumber: string, goodsId?: number) {
  const order = await ctx.db.order.findUnique({ where: { orderNumber } });
  if (!order || order.userId !== userId || (goodsId !== undefined && order.goodsId !== goodsId)) {
    throw new AppError(StatusCode.OrderNotFound);
  }
  return order;
}

/**
 * A new QR for the same order (the refresh after a timeout or a failed payment): a closed or expired
 * order opens again as the next provider order, payable for another PAY_ORDER_TTL_SECONDS; an open
 * one keeps its QR; a paid one stays paid.
 */
export async function reopenOrder(ctx: Ctx, userId: number, orderNumber: string, goodsId: number): Promise<OrderModel> {
  const order = await ownOrder(ctx, userId, orderNumber, goodsId);
  const now = ctx.clock.now();
  if (order.grantedAt || (OPEN_TRADE_STATES.includes(order.tradeStatus) && order.expiresAt > now)) return order;
  const [reopened] = await ctx.db.order.updateManyAndReturn({
    where: { orderNumber, grantedAt: null, attempt: order.attempt },
    data: {
      attempt: { increment: 1 },
      tradeStatus: TradeStatus.Created,
      expiresAt: addSeconds(now, ctx.config.PAY_ORDER_TTL_SECONDS),
      scannedAt: null,
      closedAt: null,
      closeReason: null,
      queriedAt: null,
      payUrl: "",
    },
  });
  if (reopened) await orderChanged(ctx, reopened);
  // Two refreshes at once: the other one reopened it.
  return reopened ?? ownOrder(ctx, userId, orderNumber, goodsId);
}

/** Closes the order if it is still open past its expiry; answers the order as it now is. */
export async function expireIfDue(ctx: Ctx, order: OrderModel): Promise<OrderModel> {
  return (await closeIfDue(ctx, order)).order;
}

/** expireIfDue, also saying whether this call closed it (of racing callers, one did: the metrics count it once). */
export async function closeIfDue(ctx: Ctx, order: OrderModel): Promise<{ order: OrderModel; closed: boolean }> {
  const now = ctx.clock.now();
  if (!OPEN_TRADE_STATES.includes(order.tradeStatus) || order.expiresAt > now) return { order, closed: false };
  const [closed] = await ctx.db.order.updateManyAndReturn({
    where: { orderNumber: order.orderNumber, tradeStatus: { in: OPEN_TRADE_STATES }, grantedAt: null },
    data: { tradeStatus: TradeStatus.Closed, closedAt: now, closeReason: "expired" },
  });
  if (closed) await orderChanged(ctx, closed);
  return {
    order: closed ?? (await ctx.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } })),
    closed: Boolean(closed),
  };
}

/** Every open order past its expiry closes (housekeeping); answers them so their provider trades can be closed too. */
export async function closeExpiredOrders(ctx: Ctx): Promise<OrderModel[]> {
  const now = ctx.clock.now();
  const closed = await ctx.db.order.updateManyAndReturn({
    where: { tradeStatus: { in: OPEN_TRADE_STATES }, expiresAt: { lte: now }, grantedAt: null },
    data: { tradeStatus: TradeStatus.Closed, closedAt: now, closeReason: "expired" },
  });
  for (const order of closed) await orderChanged(ctx, order);
  return closed;
}

/** Announces a change of an order's status (the API's poll cache, on every replica, drops it). */
function orderChanged(ctx: Pick<Ctx, "events">, order: Pick<OrderModel, "userId" | "orderNumber">) {
  return ctx.events.publish({ type: "order.changed", userId: order.userId, orderNumber: order.orderNumber });
}

/**
 * What the provider said of an open order that is not paid: scanned (→ 0) or closed by the payer (→ 3).
 * Answers whether the order changed.
 */
export async function noteProviderState(ctx: Ctx, orderNumber: string, state: "scanned" | "closed"): Promise<boolean> {
  const now = ctx.clock.now();
  const changed =
    state === "scanned"
      ? await ctx.db.order.updateManyAndReturn({
          where: { orderNumber, tradeStatus: TradeStatus.Created },
          data: { tradeStatus: TradeStatus.Scanned, scannedAt: now },
        })
      : await ctx.db.order.updateManyAndReturn({
          where: { orderNumber, tradeStatus: { in: OPEN_TRADE_STATES }, grantedAt: null },
          data: { tradeStatus: TradeStatus.Closed, closedAt: now, closeReason: "failed" },
        });
  for (const order of changed) await orderChanged(ctx, order);
  return changed.length > 0;
}

/** The QR the provider made for the order's current trade (what the cashier shows). */
export function savePayUrl(ctx: Pick<Ctx, "db">, orderNumber: string, payUrl: string): Promise<OrderModel> {
  return ctx.db.order.update({ where: { orderNumber }, data: { payUrl } });
}

/**
 * Elects one poller per order and period to ask the provider (a conditional update on queriedAt): true for
 * the one that may ask now.
 */
export async function claimProviderQuery(ctx: Pick<Ctx, "db" | "clock">, orderNumber: string, everyMs: number) {
  const now = ctx.clock.now();
  const claimed = await ctx.db.order.updateMany({
    where: { orderNumber, OR: [{ queriedAt: null }, { queriedAt: { lt: new Date(now.getTime() - everyMs) } }] },
    data: { queriedAt: now },
  });
  return claimed.count === 1;
}

/** A provider's word that an order was paid: from a verified notification, or from asking the provider. */
export interface PaymentReport {
  /** the provider order number (out_trade_no) */
  providerOrderNo: string;
  /** the paid amount as the provider writes it ("84.00") */
  totalAmount: string;
  providerTradeNo: string;
  /** TRADE_SUCCESS (→ 1 paid) or TRADE_FINISHED (→ 2 finished: no refund possible any more) */
  status: "TRADE_SUCCESS" | "TRADE_FINISHED";
}

export class PaymentMismatch extends Error {
  constructor(readonly why: "unknown-order" | "amount") {
    super(`payment report refused: ${why}`);
    this.name = "PaymentMismatch";
  }
}

/**
 * Marks the order paid and grants its goods, exactly once however many reports arrive, in whatever
 * order and however concurrently: the order row is locked and `grantedAt` is set in the same
 * transaction as the grant. Membership extends from max(now, its current end); a duration card is
 * valid 1 year. The message centre gets a message; "user.changed" and "order.paid" are announced
 * after the commit. A report for an order that timed out meanwhile still grants: the money moved,
 * so the goods are due (docs/commerce.md). Throws PaymentMismatch for an unknown order or a wrong amount.
 */
export async function settleOrder(ctx: Ctx, report: PaymentReport): Promise<"granted" | "already-granted"> {
  const paidFen = parseAlipayAmount(report.totalAmount);
  const orderNumber = orderNumberOf(report.providerOrderNo);
  const now = ctx.clock.now();
  return transact(ctx, async (tx, after) => {
    const [order] = await tx.$queryRaw<OrderModel[]>`
      SELECT * FROM orders WHERE "orderNumber" = ${orderNumber} FOR UPDATE`;
    if (!order) throw new PaymentMismatch("unknown-order");
    if (paidFen === null || paidFen !== order.amountFen) throw new PaymentMismatch("amount");
    const status = report.status === "TRADE_FINISHED" ? TradeStatus.Finished : TradeStatus.Paid;
    if (order.grantedAt) {
      if (status > order.tradeStatus) {
        await tx.order.update({ where: { orderNumber }, data: { tradeStatus: status } });
        after.publish({ type: "order.changed", userId: order.userId, orderNumber });
      }
      return "already-granted";
    }
    const goods = await tx.payGoods.findUniqueOrThrow({ where: { goodsId: order.goodsId } });
    let memberUntil: Date | undefined;
    if (isMembership(goods)) {
      memberUntil = await extendMembership(tx, order.userId, goods.memberDays * SECONDS.day, now);
    } else {
      await grantTimeCard(tx, {
        userId: order.userId,
        seconds: goods.duration,
        validSeconds: CARD_VALIDITY.purchase,
        source: "purchase",
        refId: orderNumber,
        now,
      });
    }
    await tx.order.update({
      where: { orderNumber },
      data: {
        tradeStatus: status,
        paidAt: now,
        grantedAt: now,
        providerTradeNo: report.providerTradeNo,
        closedAt: null,
        closeReason: null,
      },
    });
    await advanceTasks(tx, order.userId, "purchase", 1, businessDay(now, ctx.config.BUSINESS_TZ));
    const cardUntil = addSeconds(now, CARD_VALIDITY.purchase);
    // a receipt: listed in the day's one purchases notice (messages/notices.ts)
    await sendNotice(
      tx,
      order.userId,
      "purchase",
      {
        ...purchaseMessage(goods, { memberUntil, cardUntil, timeZone: ctx.config.BUSINESS_TZ }),
        ref: `order:${orderNumber}`,
        at: now,
      },
      ctx.config.BUSINESS_TZ,
    );
    after.publish({ type: "user.changed", userId: order.userId });
    after.publish({ type: "order.changed", userId: order.userId, orderNumber });
    after.publish({ type: "order.paid", userId: order.userId, orderNumber, goodsId: order.goodsId });
    return "granted";
  });
}
