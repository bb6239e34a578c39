import { durationParts, formatDurationText } from "@/lib/format.ts";
import { REWARD_BEANS } from "./checkin-rules.ts";

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A reward in one line: '10 悦豆' / '10 beans', '30 分钟' / '30 min', '1 小时' / '1 h'. */
export function rewardLabel(t: Translate, type: number, amount: number): string {
  return type === REWARD_BEANS ? t("checkin.beansN", { count: amount }) : formatDurationText(t, amount);
}

/** The same as a number and a unit, for a calendar cell that stacks them ('10' over '悦豆'). */
export function rewardParts(t: Translate, type: number, amount: number): { value: string; unit: string } {
  if (type === REWARD_BEANS) return { value: String(amount), unit: t("checkin.beansWord", { count: amount }) };
  const { value, unit } = durationParts(amount);
  return { value: String(value), unit: t(`units.${unit}Word`, { count: value }) };
}
