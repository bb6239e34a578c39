import { z } from "zod";

/**
 * Spec §3 Check-in info. allSignDay: days signed this month (business time zone); nowMonth 1–12;
 * todaySign: signed today; rewardContentList: the reward of the n-th signed day, for days 1..days in this month.
 * signRewardType 0 = beans, otherwise a time card of signRewardNumber seconds.
 */
export const ZSignRewardDay = z.object({
  day: z.number().int(),
  signRewardNumber: z.number().int(),
  signRewardType: z.number().int(),
  rewardPicPath: z.string(),
});
export const ZCheckInInfo = z.object({
  allSignDay: z.number().int(),
  nowMonth: z.number().int(),
  todaySign: z.boolean(),
  rewardContentList: z.array(ZSignRewardDay),
});
export type CheckInInfo = z.infer<typeof ZCheckInInfo>;

/** signCheck of a sign result (spec §4 Check-in): 1 success, 2 already signed today. */
export const SignCheck = { Success: 1, AlreadySigned: 2 } as const;

/**
 * Spec §3 Sign result. signRewardNumber and signRewardType are the calendar's reward for the day
 * (rewardContentList[allSignDay] before signing); memberTimes is the multiplier (2 for members, else 1),
 * so the user received signRewardNumber × memberTimes beans or seconds. With signCheck 2 they describe
 * today's earlier check-in.
 */
export const ZSignResult = z.object({
  signCheck: z.number().int(),
  signRewardNumber: z.number().int(),
  signRewardType: z.number().int(),
  memberTimes: z.number().int(),
});
export type SignResult = z.infer<typeof ZSignResult>;

/** Spec §3 Task. progressStatus 0 unfinished, 1 can claim, 2 claimed. */
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

/** Spec §3 Reward: type 0 beans, otherwise time card; num beans or seconds. */
export const ZReward = z.object({ type: z.number().int(), num: z.number().int(), amount: z.number().int() });

/** Spec §3 Gift redeem result. rewardType 101–199 = membership days. */
export const ZGiftRedeemResult = z.object({ rewardType: z.number().int(), rewardNumber: z.number().int() });
export const GIFT_CODE_LENGTH = 8;
