import { isMembershipRewardType, RewardType } from "@yuelu/contracts/constants";
import { durationParts, formatDurationText } from "./format.ts";

/**
 * What a reward is, from its type (spec §3 Reward, Gift redeem result, Purchase result): 0 beans,
 * 101–199 days of membership (gift codes), anything else seconds of a time card.
 */
export type RewardKind = "beans" | "member" | "card";

export function rewardKind(type: number): RewardKind {
  if (type === RewardType.Beans) return "beans";
  if (isMembershipRewardType(type)) return "member";
  return "card";
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A reward in one line: '20 悦豆' / '20 beans', '30 分钟' / '30 min', '7 天会员' / '7 days of membership'. */
export function rewardLabel(t: Translate, type: number, amount: number): string {
  const kind = rewardKind(type);
  if (kind === "beans") return t("rewards.beansN", { count: amount });
  if (kind === "member") return t("rewards.memberDays", { count: amount });
  return formatDurationText(t, amount);
}

/** The same as a number and a unit, for an image that stacks them ('30' and '分钟'). */
export function rewardParts(t: Translate, type: number, amount: number): { value: string; unit: string } {
  const kind = rewardKind(type);
  if (kind === "beans") return { value: String(amount), unit: t("rewards.beans") };
  if (kind === "member") return { value: String(amount), unit: t("rewards.daysWord", { count: amount }) };
  const { value, unit } = durationParts(amount);
  return { value: String(value), unit: t(`units.${unit}Word`, { count: value }) };
}
