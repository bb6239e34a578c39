import { z } from "zod";

/** Spec §3 Check-in info. */
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

/** Spec §3 Sign result. signCheck 1 success, 2 already signed. */
export const ZSignResult = z.object({
  signCheck: z.number().int(),
  signRewardNumber: z.number().int(),
  signRewardType: z.number().int(),
  memberTimes: z.number().int(),
});

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
