import {
  type AdminOrderDetail,
  type AdminOrderPage,
  type AdminOrderQuery,
  type AdminOrderRow,
  type AdminRefundResult,
  type Lang,
  pageWindow,
  StatusCode,
} from "@yuelu/contracts";
import type { Db, OrderModel, PayGoodsModel, Prisma } from "@yuelu/db";
import { isMembership } from "../commerce/catalogue.ts";
import { alipayAmount } from "../commerce/money.ts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendUserMessage } from "../messages/send.ts";
import { SECONDS } from "../time.ts";
import { transact } from "../transaction.ts";
import { type AdminActor, audit } from "./audit.ts";
import { assertDay, dayStartUtc, nextDay } from "./days.ts";

/**
 * The operator console's orders (docs/admin.md "Orders"): the table, one order with the payment
 * notifications it received, and refund-and-revoke.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

type OrderWithGoods = OrderModel & { goods: PayGoodsModel; user: { phone: string | null } };

function orderRow(o: OrderWithGoods, lang: Lang): AdminOrderRow {
  return {
    orderNumber: o.orderNumber,
    userId: o.userId,
    phone: o.user.phone,
    goodsId: o.goodsId,
    goodsName: lang === "en" ? o.goods.goodsNameEn : o.goods.goodsName,
    goodsType: o.goods.goodsType,
    amountFen: o.amountFen,
    tradeStatus: o.tradeStatus,
    provider: o.provider,
    providerTradeNo: o.providerTradeNo,
    createdAt: o.createdAt.toISOString(),
    paidAt: iso(o.paidAt),
    grantedAt: iso(o.grantedAt),
    closedAt: iso(o.closedAt),
    closeReason: o.closeReason,
    refundedAt: iso(o.refundedAt),
    refundReason: o.refundReason,
  };
}

const WITH_GOODS = { goods: true, user: { select: { phone: true } } } as const;

/** The orders table, filtered by status, refund, user (id or phone), goods, order number prefix and days. */
export async function adminOrders(
  ctx: Pick<DomainContext, "db" | "config">,
  q: AdminOrderQuery,
  lang: Lang,
): Promise<AdminOrderPage> {
  assertDay("from", q.from);
  assertDay("to", q.to);
  const tz = ctx.config.BUSINESS_TZ;
  const created: Prisma.DateTimeFilter = {
    ...(q.from ? { gte: dayStartUtc(q.from, tz) } : {}),
    ...(q.to ? { lt: dayStartUtc(nextDay(q.to), tz) } : {}),
  };
  // a user's digits: an id, or a phone when it has a phone's 11
  const user: Prisma.OrderWhereInput = q.user
    ? q.user.length === 11
      ? { user: { phone: q.user } }
      : { userId: Number(q.user) <= 2_147_483_647 ? Number(q.user) : -1 }
    : {};
  const where: Prisma.OrderWhereInput = {
    ...user,
    ...(q.tradeStatus !== undefined ? { tradeStatus: q.tradeStatus } : {}),
    ...(q.refunded === "true" ? { refundedAt: { not: null } } : {}),
    ...(q.refunded === "false" ? { refundedAt: null } : {}),
    ...(q.goodsId ? { goodsId: q.goodsId } : {}),
    ...(q.orderNumber ? { orderNumber: { startsWith: q.orderNumber } } : {}),
    ...(q.from || q.to ? { createdAt: created } : {}),
  };
  const orderBy: Prisma.OrderOrderByWithRelationInput[] = [
    { [q.sort]: q.sort === "paidAt" ? { sort: q.order, nulls: "last" } : q.order },
    { orderNumber: q.order },
  ];
  const [rows, total] = await Promise.all([
    ctx.db.order.findMany({ where, include: WITH_GOODS, orderBy, ...pageWindow(q) }),
    ctx.db.order.count({ where }),
  ]);
  return { items: rows.map((o) => orderRow(o, lang)), total, page: q.page, pageSize: q.pageSize };
}

/** One order with its payment notifications and the card it granted; 60003 when there is none. */
export async function adminOrderDetail(db: Db, orderNumber: string, lang: Lang): Promise<AdminOrderDetail> {
  const order = await db.order.findUnique({
    where: { orderNumber },
    include: { ...WITH_GOODS, notifications: { orderBy: { id: "asc" } } },
  });
  if (!order) throw new AppError(StatusCode.OrderNotFound);
  const card = await grantedCard(db, order);
  return {
    ...orderRow(order, lang),
    memberDays: order.goods.memberDays,
    duration: order.goods.duration,
    attempt: order.attempt,
    expiresAt: order.expiresAt.toISOString(),
    scannedAt: iso(order.scannedAt),
    queriedAt: iso(order.queriedAt),
    card: card
      ? { id: card.id, seconds: card.seconds, remaining: card.remaining, expiresAt: card.expiresAt.toISOString() }
      : null,
    notifications: order.notifications.map((n) => ({
      id: n.id,
      notifyId: n.notifyId,
      tradeStatus: n.tradeStatus,
      payload: n.payload,
      receivedAt: n.receivedAt.toISOString(),
    })),
  };
}

/** The time card a paid duration-card order granted: settleOrder keys it (purchase, orderNumber). */
function grantedCard(db: Db | Prisma.TransactionClient, order: Pick<OrderModel, "userId" | "orderNumber">) {
  return db.timeCard.findUnique({
    where: { userId_source_refId: { userId: order.userId, source: "purchase", refId: order.orderNumber } },
  });
}

/** Whether an order can be refunded: paid (granted) and not refunded yet. */
export function isRefundable(order: Pick<OrderModel, "grantedAt" | "refundedAt">): boolean {
  return order.grantedAt !== null && order.refundedAt === null;
}

/**
 * Refunds a paid order and revokes what it granted, with the operator's reason. The order must be
 * paid and not refunded (else 60008). `refundAtProvider` gives the money back at the payment
 * provider first (idempotent there: one refund request number per order); only then does one
 * transaction mark the order refunded — a conditional update, so among parallel refunds exactly one
 * revokes, the others answer 60008 — and take back the goods: a membership plan moves the
 * membership's end back by the plan's days but never before now (a lapsed one stays as it is); a
 * duration card's remaining seconds drop to zero. Audited; the user gets a message.
 */
export async function refundOrder(
  ctx: Ctx,
  actor: AdminActor,
  orderNumber: string,
  reason: string,
  refundAtProvider: (order: OrderModel) => Promise<void>,
): Promise<Omit<AdminRefundResult, "order">> {
  const order = await ctx.db.order.findUnique({ where: { orderNumber } });
  if (!order) throw new AppError(StatusCode.OrderNotFound);
  if (!isRefundable(order)) throw new AppError(StatusCode.OrderNotPayable);
  await refundAtProvider(order);
  const now = ctx.clock.now();
  return transact(ctx, async (tx, after) => {
    const refunded = await tx.order.updateMany({
      where: { orderNumber, grantedAt: { not: null }, refundedAt: null },
      data: { refundedAt: now, refundReason: reason },
    });
    if (refunded.count === 0) throw new AppError(StatusCode.OrderNotPayable); // a parallel refund won
    const goods = await tx.payGoods.findUniqueOrThrow({ where: { goodsId: order.goodsId } });
    const [user] = await tx.$queryRaw<{ memberEffectiveTime: Date | null }[]>`
      SELECT "memberEffectiveTime" FROM users WHERE id = ${order.userId}::int FOR UPDATE`;
    const memberUntilBefore = user?.memberEffectiveTime ?? null;
    let memberUntilAfter = memberUntilBefore;
    let cardSecondsRevoked = 0;
    if (isMembership(goods)) {
      // Only a running membership moves back, and not past now: what was used is used.
      const [moved] = await tx.$queryRaw<{ until: Date }[]>`
        UPDATE users
        SET "memberEffectiveTime" = GREATEST(${now}::timestamp(3),
              "memberEffectiveTime" - make_interval(secs => ${goods.memberDays * SECONDS.day}::double precision)),
            "updatedAt" = ${now}::timestamp(3)
        WHERE id = ${order.userId}::int AND "memberEffectiveTime" > ${now}::timestamp(3)
        RETURNING "memberEffectiveTime" AS until`;
      if (moved) memberUntilAfter = moved.until;
    } else {
      const [card] = await tx.$queryRaw<{ id: number; remaining: number }[]>`
        SELECT id, remaining FROM time_cards
        WHERE "userId" = ${order.userId}::int AND source = 'purchase' AND "refId" = ${orderNumber}
        FOR UPDATE`;
      if (card && card.remaining > 0) {
        await tx.timeCard.update({ where: { id: card.id }, data: { remaining: 0 } });
        cardSecondsRevoked = card.remaining;
      }
    }
    const revoked = {
      memberUntilBefore: iso(memberUntilBefore),
      memberUntilAfter: iso(memberUntilAfter),
      cardSecondsRevoked,
    };
    await audit(tx, actor, {
      action: "order.refund",
      target: `order:${orderNumber}`,
      before: { tradeStatus: order.tradeStatus, refundedAt: null, memberUntil: revoked.memberUntilBefore },
      after: { refundedAt: now, amountFen: order.amountFen, ...revoked },
      reason,
    });
    await sendUserMessage(tx, order.userId, {
      title: "订单已退款",
      text: `订单 ${orderNumber}（${goods.goodsName}）已退款 ¥${alipayAmount(order.amountFen)}，相应权益已收回。`,
      titleEn: "Order refunded",
      textEn: `Order ${orderNumber} (${goods.goodsNameEn}) was refunded (¥${alipayAmount(order.amountFen)}); what it granted has been taken back.`,
      sourceRef: `refund:${orderNumber}`,
    });
    after.publish({ type: "user.changed", userId: order.userId });
    after.publish({ type: "order.changed", userId: order.userId, orderNumber });
    return revoked;
  });
}

/** Records that an operator asked the provider about an order again, and what came of it. */
export async function auditRequery(
  db: Db,
  actor: AdminActor,
  orderNumber: string,
  outcome: { providerStatus: string; before: number; after: number; granted: boolean },
): Promise<void> {
  await audit(db, actor, {
    action: "order.requery",
    target: `order:${orderNumber}`,
    before: { tradeStatus: outcome.before },
    after: { tradeStatus: outcome.after, providerStatus: outcome.providerStatus, granted: outcome.granted },
  });
}
