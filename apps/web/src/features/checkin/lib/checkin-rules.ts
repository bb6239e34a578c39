import type { CheckInInfo } from "@yuelu/contracts";

/** Spec §4 day status: 0 signed, 1 signable today, 2 not yet. */
export function dayStatus(index: number, info: Pick<CheckInInfo, "allSignDay" | "todaySign">): 0 | 1 | 2 {
  if (index < info.allSignDay) return 0;
  if (index === info.allSignDay && !info.todaySign) return 1;
  return 2;
}

/** Spec §4 button text key: signed when done, member double for members, else sign in. */
export function signButtonKey(todaySign: boolean, isMember: boolean): string {
  if (todaySign) return "checkin.signed";
  return isMember ? "checkin.memberDouble" : "checkin.signIn";
}

/** Spec §4: opens only if not signed today and the openSign flag is unset or 1. */
export function shouldAutoOpenSign(todaySign: boolean, flag: string | null): boolean {
  return !todaySign && (flag === null || flag === "1");
}

/** signRewardType 0 is beans; any other type is a time card of that many seconds. */
export const REWARD_BEANS = 0;
