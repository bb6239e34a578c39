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

/**
 * Spec §3 Sign result (signCheck: SignCheck of statuses.ts). signRewardNumber and signRewardType are
 * the calendar's reward for the day (rewardContentList[allSignDay] before signing); memberTimes is
 * the multiplier (2 for members, else 1), so the user received signRewardNumber × memberTimes beans
 * or seconds. With signCheck 2 they describe today's earlier check-in.
 */
export const ZSignResult = z.object({
  signCheck: z.number().int(),
  signRewardNumber: z.number().int(),
  signRewardType: z.number().int(),
  memberTimes: z.number().int(),
});
export type SignResult = z.infer<typeof ZSignResult>;
