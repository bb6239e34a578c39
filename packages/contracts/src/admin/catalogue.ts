import { z } from "zod";
import { zFlag, zId, zInt, zText } from "../common.ts";
import { adminPageQuery } from "./common.ts";

/**
 * Contracts of /voice_yuelu/admin/goods/... (docs/admin.md, "Catalogue"): the membership plans and
 * duration cards sold for money (pay goods, prices in integer fen) and the shop goods exchanged for
 * beans. A price change holds from the next order on; an order keeps the amount it was placed for.
 */

/** ¥100,000: no plan costs more; a typo of a few zeros is refused rather than charged. */
export const ADMIN_PRICE_FEN_MAX = 10_000_000;
/** Beans one shop goods may cost. */
export const ADMIN_COIN_MAX = 1_000_000;
export const ADMIN_GOODS_NAME_MAX = 60;
export const ADMIN_GOODS_INTRO_MAX = 200;
/** 10,000 hours of transcription time on one card. */
export const ADMIN_CARD_SECONDS_MAX = 10_000 * 3600;
/** Ten years of membership from one plan. */
export const ADMIN_MEMBER_DAYS_MAX = 3650;
/** Ten years for a redeemed card to stay valid. */
export const ADMIN_VALIDITY_SECONDS_MAX = 3650 * 86_400;
export const ADMIN_SORT_MAX = 100_000;

const zName = zText({ min: 1, max: ADMIN_GOODS_NAME_MAX });
const zCount = (min: number, max: number) => zInt.pipe(z.number().int().min(min).max(max));
const zSort = zInt.pipe(z.number().int().min(-ADMIN_SORT_MAX).max(ADMIN_SORT_MAX));
/** A picture: an http(s) address or a path on this site (no `//host`, no `javascript:`). */
const zPicture = z
  .string()
  .trim()
  .max(300)
  .regex(/^(https?:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/, "must be an http(s) or site-relative URL");

// ── pay goods (membership plans, goodsType 1; duration cards, goodsType 0) ──

export const ZAdminPayGoods = z.object({
  goodsId: z.number().int(),
  goodsName: z.string(),
  goodsNameEn: z.string(),
  /** what the next order charges, fen */
  priceFen: z.number().int(),
  /** the crossed-out price, fen (≥ priceFen) */
  originalPriceFen: z.number().int(),
  currency: z.string(),
  /** 1 membership plan, 0 duration card */
  goodsType: z.number().int(),
  /** seconds of transcription time (duration cards) */
  duration: z.number().int(),
  /** days of membership (plans) */
  memberDays: z.number().int(),
  showSaved: z.boolean(),
  /** also sold in the shop's 'buy directly' tab */
  inShop: z.boolean(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** orders ever placed for it; each keeps the amount it was placed for */
  orders: z.number().int(),
  /** of those, paid (or finished) */
  paidOrders: z.number().int(),
});
export type AdminPayGoods = z.infer<typeof ZAdminPayGoods>;

export const ZAdminPayGoodsQuery = adminPageQuery(["sort", "goodsId", "priceFen", "goodsName"] as const).extend({
  goodsType: zInt.pipe(z.union([z.literal(0), z.literal(1)], { error: "must be one of: 0, 1" })).optional(),
  enabled: zFlag.optional(),
  /** part of the name (Chinese or English) */
  q: z.string().trim().max(60).optional(),
});
export type AdminPayGoodsQuery = z.infer<typeof ZAdminPayGoodsQuery>;

/** What an operator sets on a pay goods. Rules across fields (original ≥ price, a plan has days…) are the domain's. */
export const ZAdminPayGoodsFields = z.object({
  goodsName: zName,
  goodsNameEn: zName,
  priceFen: zCount(1, ADMIN_PRICE_FEN_MAX),
  originalPriceFen: zCount(1, ADMIN_PRICE_FEN_MAX),
  goodsType: zInt.pipe(z.union([z.literal(0), z.literal(1)], { error: "must be one of: 0, 1" })),
  duration: zCount(0, ADMIN_CARD_SECONDS_MAX).default(0),
  memberDays: zCount(0, ADMIN_MEMBER_DAYS_MAX).default(0),
  showSaved: zFlag.default(false),
  inShop: zFlag.default(false),
  sort: zSort.default(0),
  enabled: zFlag.default(true),
});

/**
 * Create: the operator chooses the goodsId (the natural key: orders and the limited offer name it).
 * Sending the same goods again answers it unchanged (a double click); another goods under a taken id is 10002 goodsId.
 */
export const ZAdminPayGoodsCreate = ZAdminPayGoodsFields.extend({ goodsId: zId });
export type AdminPayGoodsCreate = z.infer<typeof ZAdminPayGoodsCreate>;

/** Edit (PATCH): only the fields sent change; `enabled` and `sort` too. */
export const ZAdminPayGoodsEdit = z.object({
  goodsName: zName.optional(),
  goodsNameEn: zName.optional(),
  priceFen: zCount(1, ADMIN_PRICE_FEN_MAX).optional(),
  originalPriceFen: zCount(1, ADMIN_PRICE_FEN_MAX).optional(),
  goodsType: zInt.pipe(z.union([z.literal(0), z.literal(1)], { error: "must be one of: 0, 1" })).optional(),
  duration: zCount(0, ADMIN_CARD_SECONDS_MAX).optional(),
  memberDays: zCount(0, ADMIN_MEMBER_DAYS_MAX).optional(),
  showSaved: zFlag.optional(),
  inShop: zFlag.optional(),
  sort: zSort.optional(),
  enabled: zFlag.optional(),
});
export type AdminPayGoodsEdit = z.infer<typeof ZAdminPayGoodsEdit>;

export const ZAdminGoodsIdParams = z.object({ goodsId: zId });

/** Reorder: the goods in the order they are shown; their `sort` becomes 1, 2, 3… */
export const ZAdminGoodsReorder = z.object({
  goodsIds: z.array(zId).min(1).max(200),
});
export type AdminGoodsReorder = z.infer<typeof ZAdminGoodsReorder>;

// ── shop goods (time cards for beans) ──

export const ZAdminShopGoods = z.object({
  goodsId: z.number().int(),
  goodsName: z.string(),
  goodsNameEn: z.string(),
  goodsIntroduce: z.string(),
  goodsIntroduceEn: z.string(),
  goodsPicPath: z.string(),
  /** seconds of the card one unit grants */
  duration: z.number().int(),
  /** seconds the granted card stays valid */
  effectiveTime: z.number().int(),
  /** beans without the discount */
  originalCoin: z.number().int(),
  /** beans with the discount (≤ originalCoin) */
  exchangeCoin: z.number().int(),
  /** the discounted price applies (a redeem costs exchangeCoin, else originalCoin) */
  discount: z.boolean(),
  sort: z.number().int(),
  enabled: z.boolean(),
  /** redeems so far */
  purchases: z.number().int(),
});
export type AdminShopGoods = z.infer<typeof ZAdminShopGoods>;

export const ZAdminShopGoodsQuery = adminPageQuery(["sort", "goodsId", "exchangeCoin", "goodsName"] as const).extend({
  enabled: zFlag.optional(),
  q: z.string().trim().max(60).optional(),
});
export type AdminShopGoodsQuery = z.infer<typeof ZAdminShopGoodsQuery>;

const shopFields = {
  goodsName: zName,
  goodsNameEn: zName,
  goodsIntroduce: zText({ max: ADMIN_GOODS_INTRO_MAX }),
  goodsIntroduceEn: zText({ max: ADMIN_GOODS_INTRO_MAX }),
  goodsPicPath: zPicture,
  duration: zCount(1, ADMIN_CARD_SECONDS_MAX),
  effectiveTime: zCount(1, ADMIN_VALIDITY_SECONDS_MAX),
  originalCoin: zCount(1, ADMIN_COIN_MAX),
  exchangeCoin: zCount(1, ADMIN_COIN_MAX),
};

export const ZAdminShopGoodsCreate = z.object({
  goodsId: zId,
  ...shopFields,
  goodsIntroduce: shopFields.goodsIntroduce.default(""),
  goodsIntroduceEn: shopFields.goodsIntroduceEn.default(""),
  goodsPicPath: zPicture.default(""),
  /** 90 days, like the seeded goods */
  effectiveTime: shopFields.effectiveTime.default(90 * 86_400),
  discount: zFlag.default(false),
  sort: zSort.default(0),
  enabled: zFlag.default(true),
});
export type AdminShopGoodsCreate = z.infer<typeof ZAdminShopGoodsCreate>;

export const ZAdminShopGoodsEdit = z.object({
  goodsName: shopFields.goodsName.optional(),
  goodsNameEn: shopFields.goodsNameEn.optional(),
  goodsIntroduce: shopFields.goodsIntroduce.optional(),
  goodsIntroduceEn: shopFields.goodsIntroduceEn.optional(),
  goodsPicPath: zPicture.optional(),
  duration: shopFields.duration.optional(),
  effectiveTime: shopFields.effectiveTime.optional(),
  originalCoin: shopFields.originalCoin.optional(),
  exchangeCoin: shopFields.exchangeCoin.optional(),
  discount: zFlag.optional(),
  sort: zSort.optional(),
  enabled: zFlag.optional(),
});
export type AdminShopGoodsEdit = z.infer<typeof ZAdminShopGoodsEdit>;
