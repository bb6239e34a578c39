import type { Assets, StorageInfo } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";
import { isMemberAt } from "./membership.ts";

/** Spec §3: anonymous visitors (and deleted accounts) see zero storage info. */
export const ZERO_STORAGE: StorageInfo = { timeUsedToday: 0, timeLimitToday: 0, timeUsed: 0, timeLimit: 0, auth: 0 };

type QuotaContext = Pick<DomainContext, "db" | "clock" | "config">;

/** The daily transcription cap (seconds) of a member or not (README "Transcription quota and charging"). */
export function dailyLimit(config: QuotaContext["config"], member: boolean): number {
  return member ? config.DAILY_QUOTA_SECONDS_MEMBER : config.DAILY_QUOTA_SECONDS;
}

/** The daily cap that applies to the user now. */
export async function dailyLimitOf(ctx: QuotaContext, userId: number, db: QuotaContext["db"] | Tx = ctx.db) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } });
  return dailyLimit(ctx.config, isMemberAt(user?.memberEffectiveTime ?? null, ctx.clock.now()));
}

/**
 * Storage info in seconds. timeLimit/timeUsed cover the time cards still valid (their full seconds,
 * and what has been drawn from them); timeLimitToday is the daily transcription cap and
 * timeUsedToday what today's transcriptions took. auth 1 (members) enables the caption page.
 */
export async function storageInfo(ctx: QuotaContext, userId: number): Promise<StorageInfo> {
  const now = ctx.clock.now();
  const [cards, today, user] = await Promise.all([
    ctx.db.timeCard.aggregate({
      where: { userId, expiresAt: { gt: now } },
      _sum: { seconds: true, remaining: true },
    }),
    ctx.db.quotaDay.findUnique({ where: { userId_day: { userId, day: businessDay(now, ctx.config.BUSINESS_TZ) } } }),
    ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const member = isMemberAt(user?.memberEffectiveTime ?? null, now);
  const timeLimit = cards._sum.seconds ?? 0;
  return {
    timeUsedToday: today?.secondsUsed ?? 0,
    timeLimitToday: dailyLimit(ctx.config, member),
    timeUsed: timeLimit - (cards._sum.remaining ?? 0),
    timeLimit,
    auth: member ? 1 : 0,
  };
}

/** Spec §3 Assets: seconds left on valid time cards, and the bean balance. */
export async function assetsOf(ctx: Pick<DomainContext, "db" | "clock">, userId: number): Promise<Assets> {
  const [cards, user] = await Promise.all([
    ctx.db.timeCard.aggregate({ where: { userId, expiresAt: { gt: ctx.clock.now() } }, _sum: { remaining: true } }),
    ctx.db.user.findUniqueOrThrow({ where: { id: userId }, select: { beanBalance: true } }),
  ]);
  return { allTimeCard: cards._sum.remaining ?? 0, allCoinNumber: user.beanBalance };
}
