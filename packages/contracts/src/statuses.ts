/** Status values the API answers (zod-free, for `@yuelu/contracts/constants`). */

/**
 * Spec §4 audio file / transcription task statuses. A record is Waiting until its first
 * transcription; a task goes InQueue → Transcribing → Complete, or to Failed (refunded).
 * NotFound answers get_progress for an id that is not the caller's record.
 */
export const FileStatus = { Waiting: 0, Transcribing: 1, Complete: 2, InQueue: 3, Failed: -1, NotFound: -10 } as const;
export type FileStatus = (typeof FileStatus)[keyof typeof FileStatus];

/**
 * tradeStatus of a payment order (ARCHITECTURE §4): -1 created, 0 scanned and awaiting payment,
 * 1 paid, 2 finished, 3 closed / failed / timed out.
 */
export const TradeStatus = { Created: -1, Scanned: 0, Paid: 1, Finished: 2, Closed: 3 } as const;
export type TradeStatus = (typeof TradeStatus)[keyof typeof TradeStatus];

/** goodsType of pay goods (spec §3): 1 membership plan, 0 duration card. */
export const GoodsType = { DurationCard: 0, Membership: 1 } as const;

/** The only payment channel (spec §9). */
export const PAY_AGENT = "alipay";

/** progressStatus of a task (spec §4 Tasks): 0 unfinished, 1 can claim, 2 claimed. */
export const ProgressStatus = { Unfinished: 0, Claimable: 1, Claimed: 2 } as const;

/** rewardType / signRewardType: 0 beans; 1 a time card (seconds); 101–199 membership days (gift codes). */
export const RewardType = { Beans: 0, TimeCard: 1 } as const;

/** signCheck of a sign result (spec §4 Check-in): 1 success, 2 already signed today. */
export const SignCheck = { Success: 1, AlreadySigned: 2 } as const;

/** Epoch seconds, the spec's server timestamp unit (0 for none). */
export function toEpochSeconds(date: Date | null | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}
