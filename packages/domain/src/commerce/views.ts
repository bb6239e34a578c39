import {
  type Checkout,
  type Lang,
  type OrderPage,
  type OrderView,
  TradeStatus,
  toEpochSeconds,
} from "@yuelu/contracts";
import type { OrderModel, PayGoodsModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { payGoodsView, sellableGoods } from "./catalogue.ts";
import { yuan } from "./money.ts";
import { OPEN_TRADE_STATES } from "./orders.ts";

type Ctx = Pick<DomainContext, "db" | "clock">;

export function orderView(order: OrderModel & { goods: PayGoodsModel }, lang: Lang): OrderView {
  return {
    orderNumber: order.orderNumber,
    goodsId: order.goodsId,
    goodsName: lang === "en" ? order.goods.goodsNameEn : order.goods.goodsName,
    goodsType: order.goods.goodsType,
    amount: yuan(order.amountFen),
    amountFen: order.amountFen,
    currency: order.goods.currency,
    tradeStatus: order.tradeStatus,
    payAgent: order.payAgent,
    duration: order.goods.duration,
    memberDays: order.goods.memberDays,
    createTime: toEpochSeconds(order.createdAt),
    payTime: toEpochSeconds(order.paidAt),
    expireTime: toEpochSeconds(order.expiresAt),
  };
}

/** pay_order_list: the user's orders, newest first. */
export async function orderList(
  ctx: Ctx,
  userId: number,
  query: { page: number; pageSize: number; tradeStatus?: number },
  lang: Lang,
): Promise<OrderPage> {
  const where = { userId, ...(query.tradeStatus !== undefined ? { tradeStatus: query.tradeStatus } : {}) };
  const [total, rows] = await ctx.db.$transaction([
    ctx.db.order.count({ where }),
    ctx.db.order.findMany({
      where,
      include: { goods: true },
      orderBy: [{ createdAt: "desc" }, { orderNumber: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  return { total, list: rows.map((o) => orderView(o, lang)) };
}

/** get_transfer_order: the latest order still waiting for its payment (not expired), or null. */
export async function latestOpenOrder(ctx: Ctx, userId: number, lang: Lang): Promise<OrderView | null> {
  const order = await ctx.db.order.findFirst({
    where: { userId, tradeStatus: { in: OPEN_TRADE_STATES }, expiresAt: { gt: ctx.clock.now() } },
    include: { goods: true },
    orderBy: { createdAt: "desc" },
  });
  return order ? orderView(order, lang) : null;
}

const NOTES: Record<Lang, string[]> = {
  zh: [
    "虚拟商品，支付成功后立即到账，不支持退款。",
    "时长卡自购买之日起 1 年内有效，转写时优先使用最早到期的时长卡。",
    "会员权益自支付成功起生效，续费时在当前有效期后顺延。",
  ],
  en: [
    "Digital goods: delivered as soon as the payment succeeds, and not refundable.",
    "Time cards are valid for 1 year from purchase; transcription uses the card that expires first.",
    "Membership starts when the payment succeeds; a renewal extends it from its current end.",
  ],
};

/** order/get_checkout: the price detail of one unit of the goods (spec §2 duration-card tab and /order). */
export async function checkout(ctx: Ctx, goodsId: number, lang: Lang): Promise<Checkout> {
  const goods = await sellableGoods(ctx, goodsId);
  const view = payGoodsView(goods, lang);
  return {
    goods: view,
    quantity: 1,
    goodsAmountFen: goods.originalPriceFen,
    discountFen: goods.originalPriceFen - goods.priceFen,
    totalFen: goods.priceFen,
    goodsAmount: yuan(goods.originalPriceFen),
    total: yuan(goods.priceFen),
    currency: goods.currency,
    notes: NOTES[lang],
  };
}

/** A paid order's status never goes back; the trade statuses the cashier stops polling at. */
export function isSettled(tradeStatus: number): boolean {
  return tradeStatus === TradeStatus.Paid || tradeStatus === TradeStatus.Finished || tradeStatus === TradeStatus.Closed;
}
