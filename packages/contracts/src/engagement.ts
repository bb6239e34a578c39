import { z } from "zod";
import { zId, zInt, zPaging, zSource, zText } from "./common.ts";
import { FEEDBACK_CONTACT_MAX, FEEDBACK_TEXT_MAX, GIFT_CODE_LENGTH, SHOP_MAX_QUANTITY } from "./limits.ts";

/** Beans, tasks, gift codes, the bean shop, messages and feedback (docs/engagement.md). */

// ── the bean ledger ──

export const ZBeanDetailQuery = z.object(zPaging);
/** One bean-ledger row: amount (+ earned / − spent), why, and the balance after it. Times epoch s. */
export const ZBeanEntry = z.object({
  id: z.number().int(),
  amount: z.number().int(),
  reason: z.string(),
  reasonName: z.string(),
  balanceAfter: z.number().int(),
  createTime: z.number().int(),
});
export type BeanEntry = z.infer<typeof ZBeanEntry>;
export const ZBeanDetailPage = z.object({ total: z.number().int(), list: z.array(ZBeanEntry) });
export type BeanDetailPage = z.infer<typeof ZBeanDetailPage>;

// ── tasks ──

/** Spec §3 Task. progressStatus: ProgressStatus of statuses.ts; rewardType 0 beans, else seconds of a time card. */
export const ZTask = z.object({
  challengeId: z.number().int(),
  challengeName: z.string(),
  challengeDesc: z.string(),
  challengeType: z.number().int(),
  progressAmount: z.number().int(),
  progressFinish: z.number().int(),
  progressStatus: z.number().int(),
  rewardType: z.number().int(),
  rewardNumber: z.number().int(),
});
export type Task = z.infer<typeof ZTask>;
/** task_list: two groups, daily tasks first, challenges second (spec §3). */
export const ZTaskList = z.tuple([z.array(ZTask), z.array(ZTask)]);
export type TaskList = z.infer<typeof ZTaskList>;

export const ZReceiveRewardBody = z.object({ challengeId: zId });
/** Spec §3 Reward: type 0 beans, otherwise a time card; num beans or seconds; amount how many. */
export const ZReward = z.object({ type: z.number().int(), num: z.number().int(), amount: z.number().int() });
export type Reward = z.infer<typeof ZReward>;
/** receive_reward answers the rewards granted; an empty list means there was none to claim. */
export const ZRewardList = z.array(ZReward);

// ── gift codes ──

export const ZGiftCodeBody = z.object({
  packCode: z
    .string({ error: "please fill in the redeem code" })
    .trim()
    .min(1, "please fill in the redeem code")
    .refine((v) => v.length === GIFT_CODE_LENGTH && /^[A-Za-z0-9]+$/.test(v), "please fill in a correct redeem code"),
});
/** Spec §3 Gift redeem result: rewardType 101–199 membership days (rewardNumber days), 0 beans, 1 seconds of a card. */
export const ZGiftRedeemResult = z.object({ rewardType: z.number().int(), rewardNumber: z.number().int() });
export type GiftRedeemResult = z.infer<typeof ZGiftRedeemResult>;

// ── the bean shop ──

/** Spec §3 Shop (redeem) goods. duration and effectiveTime in seconds; discount: exchangeCoin applies. */
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
export const ZShopGoodsQuery = z.object(zPaging);
export const ZShopGoodsPage = z.object({ total: z.number().int(), list: z.array(ZShopGoods) });
export type ShopGoodsPage = z.infer<typeof ZShopGoodsPage>;

/**
 * purchase_goods (spec §7): `exchangeAmount` units of `goodsId` for `coinNumber` beans — the total the
 * client showed, checked against the price now (a stale price is refused). `userId` is the caller's.
 */
export const ZPurchaseGoodsBody = z.object({
  goodsId: zId,
  exchangeAmount: zInt.pipe(z.number().int().min(1).max(SHOP_MAX_QUANTITY)),
  coinNumber: zInt.pipe(z.number().int().min(1)),
  userId: zInt.optional(),
});
/** Spec §3 Purchase result: what was granted — a time card (signRewardType 1) of signRewardNumber seconds. */
export const ZPurchaseResult = z.object({
  exchangeAmount: z.number().int(),
  signRewardType: z.number().int(),
  signRewardNumber: z.number().int(),
  /** the bean balance after it */
  balance: z.number().int(),
});
export type PurchaseResult = z.infer<typeof ZPurchaseResult>;

// ── messages ──

/** One event listed in a grouped notice (docs/engagement.md "Messages"), in the reader's language. */
export const ZMessageItem = z.object({
  title: z.string(),
  /** its line in the notice's list */
  text: z.string(),
  /** epoch s: when it happened */
  sendTime: z.number().int(),
});
export type MessageItem = z.infer<typeof ZMessageItem>;

/** Spec §3 Message, in the reader's language. notifyRead 1 read, 0 unread; sendTimeStr 'yyyy-MM-dd HH:mm:ss'. */
export const ZMessage = z.object({
  notifyId: z.number().int(),
  notifyTitle: z.string(),
  notifyText: z.string(),
  notifyRead: z.number().int(),
  senderName: z.string(),
  sendTimeStr: z.string(),
  /** epoch s */
  sendTime: z.number().int(),
  /**
   * additive (issue 43): a grouped routine notice's events, newest first ([] for any other message).
   * With two or more, notifyText is a summary line, then one line per event (items[i].text).
   */
  items: z.array(ZMessageItem),
});
export type Message = z.infer<typeof ZMessage>;
/** notify/get_list: readSign -1 (or absent) all, 0 unread only. */
export const ZMessageListQuery = z.object({
  ...zPaging,
  readSign: z.coerce
    .number({ error: "must be a number" })
    .int()
    .refine((v) => v === -1 || v === 0 || v === 1, "must be one of: -1, 0, 1")
    .optional(),
});
export const ZReadMessageBody = z.object({ notifyId: zId });
export const ZReadResult = z.object({ read: z.number().int(), unreadSize: z.number().int() });

// ── feedback ──

/** Spec §3 Feedback category: level 0 is top level, others are children (parentId their parent). */
export const ZFeedbackCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int(),
  level: z.number().int(),
});
export type FeedbackCategory = z.infer<typeof ZFeedbackCategory>;
/** feedback/add fields (multipart with up to 3 images named `images`, or JSON without images). */
export const ZFeedbackFields = z.object({
  categoryId: zId,
  content: zText({ min: 1, max: FEEDBACK_TEXT_MAX, multiline: true }),
  contact: zText({ max: FEEDBACK_CONTACT_MAX }).optional(),
  source: zSource,
});
export const ZFeedbackResult = z.object({ id: z.number().int(), images: z.number().int() });
