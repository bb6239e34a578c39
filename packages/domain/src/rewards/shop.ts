import {
  type Lang,
  type PurchaseResult,
  RewardType,
  type ShopGoods,
  type ShopGoodsPage,
  StatusCode,
} from "@yuelu/contracts";
import type { ShopGoodsModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { sendNotice } from "../messages/notices.ts";
import { transact } from "../transaction.ts";
import { spendBeans } from "../wallet/ledger.ts";
import { grantTimeCard } from "../wallet/time-cards.ts";
import { rewardText } from "./tasks.ts";

/**
 * The bean shop (spec §2 shop dialog 'exchange with beans', §5 redeem quantity): goods that turn
 * beans into time cards valid 3 months (`effectiveTime`). Beans are never bought, never expire and
 * cannot be withdrawn: this is the only way to spend them.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

export const SHOP_LEDGER_REASON = "shop";

/** What one unit costs: exchangeCoin when the goods are discounted, else originalCoin (spec §5). */
export function unitCost(goods: Pick<ShopGoodsModel, "discount" | "exchangeCoin" | "originalCoin">): number {
  return goods.discount ? goods.exchangeCoin : goods.originalCoin;
}

function view(g: ShopGoodsModel, lang: Lang): ShopGoods {
  return {
    goodsId: g.goodsId,
    goodsName: lang === "en" ? g.goodsNameEn : g.goodsName,
    goodsIntroduce: lang === "en" ? g.goodsIntroduceEn : g.goodsIntroduce,
    goodsPicPath: g.goodsPicPath,
    duration: g.duration,
    effectiveTime: g.effectiveTime,
    originalCoin: g.originalCoin,
    exchangeCoin: g.exchangeCoin,
    discount: g.discount,
  };
}

/** goods_list: the shop's enabled goods, in order. */
export async function shopGoods(
  ctx: Pick<DomainContext, "db">,
  page: { page: number; pageSize: number },
  lang: Lang,
): Promise<ShopGoodsPage> {
  const where = { enabled: true };
  const [total, rows] = await ctx.db.$transaction([
    ctx.db.shopGoods.count({ where }),
    ctx.db.shopGoods.findMany({
      where,
      orderBy: [{ sort: "asc" }, { goodsId: "asc" }],
      skip: (page.page - 1) * page.pageSize,
      take: page.pageSize,
    }),
  ]);
  return { total, list: rows.map((g) => view(g, lang)) };
}

const validityDays = (seconds: number) => Math.round(seconds / 86_400);

/**
 * purchase_goods: `amount` units of the goods for exactly `coinNumber` beans (the price the client
 * showed; a changed price is refused rather than charged). The beans are spent through the ledger —
 * conditional on the balance, under the purchase's own key — and the time card (duration × amount
 * seconds, valid effectiveTime) granted in the same transaction: parallel redeems together never
 * spend more than the balance, and each one that passes gets its card. Not enough beans → 60001.
 */
export async function purchaseGoods(
  ctx: Ctx,
  userId: number,
  input: { goodsId: number; exchangeAmount: number; coinNumber: number },
): Promise<PurchaseResult> {
  const goods = await ctx.db.shopGoods.findUnique({ where: { goodsId: input.goodsId } });
  if (!goods?.enabled) throw new AppError(StatusCode.GoodsNotFound);
  const cost = unitCost(goods) * input.exchangeAmount;
  if (cost !== input.coinNumber) throw AppError.invalid("coinNumber", "the price has changed: please check it again");
  const seconds = goods.duration * input.exchangeAmount;
  const now = ctx.clock.now();
  return transact(ctx, async (tx, after) => {
    // The user's row first: the purchase row's foreign key would otherwise take a share lock on it
    // before the ledger's exclusive one, and two parallel redeems would deadlock.
    await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId}::int FOR UPDATE`;
    const purchase = await tx.shopPurchase.create({
      data: { userId, goodsId: goods.goodsId, amount: input.exchangeAmount, coinCost: cost, seconds },
    });
    const { balance } = await spendBeans(tx, userId, cost, SHOP_LEDGER_REASON, `purchase:${purchase.id}`);
    await grantTimeCard(tx, {
      userId,
      seconds,
      validSeconds: goods.effectiveTime,
      source: "redeem",
      refId: `purchase:${purchase.id}`,
      now,
    });
    // a receipt: listed in the day's one purchases notice (messages/notices.ts)
    await sendNotice(
      tx,
      userId,
      "purchase",
      {
        ref: `shop:${purchase.id}`,
        at: now,
        title: "兑换成功",
        text: `已用 ${cost} 悦豆兑换「${goods.goodsName}」×${input.exchangeAmount}，${rewardText(RewardType.TimeCard, seconds, "zh")}已到账，有效期 ${validityDays(goods.effectiveTime)} 天。`,
        titleEn: "Redeemed",
        textEn: `You spent ${cost} beans on “${goods.goodsNameEn}” ×${input.exchangeAmount}: ${rewardText(RewardType.TimeCard, seconds, "en")} added, valid for ${validityDays(goods.effectiveTime)} days.`,
      },
      ctx.config.BUSINESS_TZ,
    );
    after.publish({ type: "user.changed", userId });
    return {
      exchangeAmount: input.exchangeAmount,
      signRewardType: RewardType.TimeCard,
      signRewardNumber: seconds,
      balance,
    };
  });
}
