import type { StorageInfo } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import type { Config } from "@yuelu/runtime";
import { businessDay } from "../../lib/time.ts";

export const ZERO_STORAGE: StorageInfo = { timeUsedToday: 0, timeLimitToday: 0, timeUsed: 0, timeLimit: 0, auth: 0 };

/**
 * Storage info in seconds. timeLimit/timeUsed cover the time cards still valid (their full
 * seconds, and what has been drawn from them); timeLimitToday is the daily transcription cap and
 * timeUsedToday what today's transcriptions took. auth 1 (members) enables the caption page.
 */
export async function storageInfo(db: Db, config: Config, userId: number, now = new Date()): Promise<StorageInfo> {
  const [cards, today, user] = await Promise.all([
    db.timeCard.aggregate({
      where: { userId, expiresAt: { gt: now } },
      _sum: { seconds: true, remaining: true },
    }),
    db.quotaDay.findUnique({ where: { userId_day: { userId, day: businessDay(now, config.BUSINESS_TZ) } } }),
    db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const isMember = isMemberAt(user?.memberEffectiveTime ?? null, now);
  const timeLimit = cards._sum.seconds ?? 0;
  return {
    timeUsedToday: today?.secondsUsed ?? 0,
    timeLimitToday: isMember ? config.DAILY_QUOTA_SECONDS_MEMBER : config.DAILY_QUOTA_SECONDS,
    timeUsed: timeLimit - (cards._sum.remaining ?? 0),
    timeLimit,
    auth: isMember ? 1 : 0,
  };
}

export function isMemberAt(memberEffectiveTime: Date | null, now = new Date()): boolean {
  return memberEffectiveTime !== null && memberEffectiveTime.getTime() > now.getTime();
}
