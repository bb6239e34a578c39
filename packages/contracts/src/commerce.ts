import { z } from "zod";
import { zId, zSource, zText } from "./common.ts";
import { PAGE_SIZE_MAX } from "./limits.ts";
import { PAY_AGENT } from "./statuses.ts";

/** Membership, duration cards, payment orders (docs/commerce.md; ARCHITECTURE §4 is the fixed part). */

/**
 * Spec §3 Pay goods. Prices are integer fen in the database; `price`/`originalPrice` are yuan numbers
 * (exactly fen / 100) as the spec shows them, `priceFen`/`originalPriceFen` the exact integers.
 * `discountLabel` is the discounted price as a label ("84", "336") when the goods are discounted;
 * `savedFen` and `cornerLabel` the '¥78 saved' corner of the goods that show one (spec §9).
 */
export const ZPayGoods = z.object({
  goodsId: z.number().int(),
  goodsName: z.string(),
  price: z.number(),
  currency: z.string(),
  originalPrice: z.number(),
  /** seconds of transcription time (duration cards; 0 for plans) */
  duration: z.number().int(),
  goodsType: z.number().int(),
  /** days of membership (plans; 0 for cards) */
  memberDays: z.number().int(),
  priceFen: z.number().int(),
  originalPriceFen: z.number().int(),
  discount: z.boolean(),
  discountLabel: z.string(),
  savedFen: z.number().int(),
  cornerLabel: z.string(),
});
export type PayGoods = z.infer<typeof ZPayGoods>;

/** goodsType 1 plans, 0 duration cards; absent: the shop's cash goods ('buy directly'). */
export const ZPayGoodsListQuery = z.object({
  goodsType: z.coerce
    .number({ error: "must be a number" })
    .int()
    .refine((v) => v === 0 || v === 1, "must be one of: 0, 1")
    .optional(),
  source: zSource,
});

const zOrderNumber = zText({ min: 8, max: 64 }).refine(
  (v) => /^[A-Za-z0-9_-]+$/.test(v),
  "letters, digits, - and _ only",
);
const zPayAgent = z.literal(PAY_AGENT, { error: `must be one of: ${PAY_AGENT}` });
/**
 * The client's key of one cashier opening (and its goods): asked again with the same key, the server
 * answers the same order instead of making another (double clicks, retries, a buggy client).
 */
const zClientKey = zText({ min: 8, max: 80 }).refine(
  (v) => /^[A-Za-z0-9:_-]+$/.test(v),
  "letters, digits, :, - and _ only",
);

/** ARCHITECTURE §4: a new order, or with `orderNumber` a new QR for that same order. */
export const ZExecutePaymentBody = z.object({
  goodsId: zId,
  payAgent: zPayAgent.optional().default(PAY_AGENT),
  source: zSource,
  orderNumber: zOrderNumber.optional(),
  clientKey: zClientKey.optional(),
});
/** payUrl is what the QR encodes; expireTime (epoch s) when the QR stops being payable. */
export const ZExecutePaymentResult = z.object({
  orderNumber: z.string(),
  payUrl: z.string(),
  tradeStatus: z.number().int(),
  expireTime: z.number().int(),
});
export type ExecutePaymentResult = z.infer<typeof ZExecutePaymentResult>;

export const ZCheckPayResultBody = z.object({
  goodsId: zId,
  orderNumber: zOrderNumber,
  payAgent: zPayAgent.optional().default(PAY_AGENT),
});
export const ZCheckPayResult = z.object({ tradeStatus: z.number().int() });
export type CheckPayResult = z.infer<typeof ZCheckPayResult>;

/** One of the user's orders (pay_order_list, get_transfer_order). Times are epoch seconds (0: none). */
export const ZOrderView = z.object({
  orderNumber: z.string(),
  goodsId: z.number().int(),
  goodsName: z.string(),
  goodsType: z.number().int(),
  amount: z.number(),
  amountFen: z.number().int(),
  currency: z.string(),
  tradeStatus: z.number().int(),
  payAgent: z.string(),
  duration: z.number().int(),
  memberDays: z.number().int(),
  createTime: z.number().int(),
  payTime: z.number().int(),
  expireTime: z.number().int(),
});
export type OrderView = z.infer<typeof ZOrderView>;

export const ZOrderListQuery = z.object({
  page: z.coerce.number({ error: "must be a number" }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number({ error: "must be a number" }).int().min(1).max(PAGE_SIZE_MAX).default(20),
  /** only orders in this trade status; -1 is a status here, so 'all' is absent */
  tradeStatus: z.coerce.number().int().min(-1).max(3).optional(),
  source: zSource,
});
export const ZOrderPage = z.object({ total: z.number().int(), list: z.array(ZOrderView) });
export type OrderPage = z.infer<typeof ZOrderPage>;

/** get_transfer_order: the user's latest order still open for payment (a reloaded page resumes it), or null. */
export const ZTransferOrder = z.object({ order: ZOrderView.nullable() });
export type TransferOrder = z.infer<typeof ZTransferOrder>;

export const ZCheckoutQuery = z.object({ goodsId: zId, source: zSource });
/** order/get_checkout: the /order page's price detail (spec §2: goods amount, total, purchase notes). */
export const ZCheckout = z.object({
  goods: ZPayGoods,
  quantity: z.number().int(),
  goodsAmountFen: z.number().int(),
  discountFen: z.number().int(),
  totalFen: z.number().int(),
  goodsAmount: z.number(),
  total: z.number(),
  currency: z.string(),
  /** the purchase notes, in the request's language */
  notes: z.array(z.string()),
});
export type Checkout = z.infer<typeof ZCheckout>;
/** order/checkout: places the order for goodsId (execute_payment's answer). */
export const ZCheckoutBody = z.object({
  goodsId: zId,
  payAgent: zPayAgent.optional().default(PAY_AGENT),
  source: zSource,
  clientKey: zClientKey.optional(),
});

/** One time card (get_user_duration_card_list). source: purchase, redeem, gift, task, welcome, checkin. */
export const ZDurationCard = z.object({
  cardId: z.number().int(),
  seconds: z.number().int(),
  remaining: z.number().int(),
  source: z.string(),
  /** where it came from, in the request's language */
  sourceName: z.string(),
  createTime: z.number().int(),
  expireTime: z.number().int(),
  expired: z.boolean(),
});
export type DurationCard = z.infer<typeof ZDurationCard>;
export const ZDurationCardListQuery = z.object({
  page: z.coerce.number({ error: "must be a number" }).int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number({ error: "must be a number" }).int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_MAX),
  /** include expired and used-up cards (default: only cards with time left) */
  all: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((v) => v === "1" || v === "true"),
  source: zSource,
});
export const ZDurationCardPage = z.object({ total: z.number().int(), list: z.array(ZDurationCard) });
export type DurationCardPage = z.infer<typeof ZDurationCardPage>;

/** get_duration_detail: the user's transcription time at a glance (seconds; times epoch s). */
export const ZDurationDetail = z.object({
  /** seconds left on valid cards (= assets allTimeCard) */
  remaining: z.number().int(),
  /** seconds of the valid cards when granted, and what has been used of them */
  total: z.number().int(),
  used: z.number().int(),
  /** seconds left on cards that expire within 30 days */
  expiringSoon: z.number().int(),
  /** the earliest expiry of a card with time left (0: none) */
  nextExpireTime: z.number().int(),
  bySource: z.array(z.object({ source: z.string(), sourceName: z.string(), remaining: z.number().int() })),
  isMember: z.boolean(),
  memberEffectiveTime: z.number().int(),
});
export type DurationDetail = z.infer<typeof ZDurationDetail>;
