import { z } from "zod";

/** Spec §3 Pay goods. goodsType 1 membership, 0 duration card. duration in seconds. */
export const ZPayGoods = z.object({
  goodsId: z.number().int(),
  goodsName: z.string(),
  price: z.number(),
  currency: z.string(),
  originalPrice: z.number(),
  duration: z.number().int(),
  goodsType: z.number().int(),
  memberDays: z.number().int(),
});
export type PayGoods = z.infer<typeof ZPayGoods>;

/** Spec §3 Shop (redeem) goods, exchanged for beans. Seconds for duration and effectiveTime. */
export const ZShopGoods = z.object({
  goodsId: z.number().int(),
  goodsName: z.string(),
  goodsIntroduce: z.string(),
  goodsPicPath: z.string(),
  duration: z.number().int(),
  effectiveTime: z.number().int(),
  originalCoin: z.number().int(),
  exchangeCoin: z.number().int(),
  discount: z.boolean(),
});
export type ShopGoods = z.infer<typeof ZShopGoods>;

/** tradeStatus: -1 created, 0 scanned, 1 paid, 2 finished, 3 closed/failed/timed out. */
export const TradeStatus = { Created: -1, Scanned: 0, Paid: 1, Finished: 2, Closed: 3 } as const;

/** Spec §3 Order. */
export const ZOrder = z.object({ orderNumber: z.string(), payUrl: z.string(), tradeStatus: z.number().int() });

/** Spec §3 Purchase result (bean exchange). */
export const ZPurchaseResult = z.object({
  exchangeAmount: z.number().int(),
  signRewardType: z.number().int(),
  signRewardNumber: z.number().int(),
});
