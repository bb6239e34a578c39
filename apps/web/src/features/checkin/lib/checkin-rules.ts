import type { CheckInInfo } from "@yuelu/contracts";
import { paths } from "@/config/paths.ts";

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

/**
 * The pages the check-in invitation may open on by itself (issue 43): the landing page and My
 * records — never a transcript (/detail), the upload page or any other page where the user works.
 * The header's rewards button opens it anywhere.
 */
const INVITATION_PAGES: readonly string[] = [paths.landing, paths.audioList];

export function canInviteOn(pathname: string): boolean {
  // the router matches paths without regard to case or a trailing slash: so does this
  const path = pathname.toLowerCase().replace(/(.)\/+$/, "$1");
  return INVITATION_PAGES.includes(path);
}

/** This browser's calendar day, YYYY-MM-DD: the invitation's 'once a day'. */
export function localDay(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Whether the check-in invitation is still to be offered: spec §4's rule (not signed today, openSign
 * unset or 1), and at most once a day per browser (`offeredOn`, the day it was last offered).
 */
export function shouldInvite(
  todaySign: boolean,
  openSign: string | null,
  offeredOn: string | null,
  today: string = localDay(),
): boolean {
  return shouldAutoOpenSign(todaySign, openSign) && offeredOn !== today;
}

/** signRewardType 0 is beans; any other type is a time card of that many seconds. */
export const REWARD_BEANS = 0;
