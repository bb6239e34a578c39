import { GoodsType, type Lang, type PayGoods, StatusCode } from "@yuelu/contracts";
import type { PayGoodsModel } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { priceLabel, yuan } from "./money.ts";

/** Spec §3 Pay goods as the API shows them, in `lang`. */
export function payGoodsView(g: PayGoodsModel, lang: Lang): PayGoods {
  const discount = g.priceFen < g.originalPriceFen;
  const savedFen = g.showSaved ? g.originalPriceFen - g.priceFen : 0;
  const saved = `${g.currency}${priceLabel(savedFen)}`;
  return {
    goodsId: g.goodsId,
    goodsName: lang === "en" ? g.goodsNameEn : g.goodsName,
    price: yuan(g.priceFen),
    currency: g.currency,
    originalPrice: yuan(g.originalPriceFen),
    duration: g.duration,
    goodsType: g.goodsType,
    memberDays: g.memberDays,
    priceFen: g.priceFen,
    originalPriceFen: g.originalPriceFen,
    discount,
    discountLabel: discount ? priceLabel(g.priceFen) : "",
    savedFen,
    cornerLabel: savedFen > 0 ? (lang === "en" ? `${saved} saved` : `立省${saved}`) : "",
  };
}

/**
 * pay_goods_list: goodsType 1 (membership plans) or 0 (duration cards); without it, the shop's cash
 * goods ('buy directly'). Enabled goods only, in their sort order.
 */
export async function listPayGoods(ctx: Pick<DomainContext, "db">, goodsType: number | undefined, lang: Lang) {
  const rows = await ctx.db.payGoods.findMany({
    where: { enabled: true, ...(goodsType === undefined ? { inShop: true } : { goodsType }) },
    orderBy: [{ sort: "asc" }, { goodsId: "asc" }],
  });
  return rows.map((g) => payGoodsView(g, lang));
}

/** The goods an order may be placed for: enabled, else 60002. */
export async function sellableGoods(ctx: Pick<DomainContext, "db">, goodsId: number): Promise<PayGoodsModel> {
  const goods = await ctx.db.payGoods.findUnique({ where: { goodsId } });
  if (!goods?.enabled) throw new AppError(StatusCode.GoodsNotFound);
  return goods;
}

export function isMembership(g: Pick<PayGoodsModel, "goodsType">): boolean {
  return g.goodsType === GoodsType.Membership;
}
