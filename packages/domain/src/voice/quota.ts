import { StatusCode, VOICE_DAILY_WORKS, VOICE_DAILY_WORKS_MEMBER, type VoiceQuota } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";
import { isMemberAt } from "../wallet/membership.ts";

/**
 * The daily voice quota (docs/voice.md "Quota"): trained voices, sung songs and converted songs count
 * one each per business day, members getting more. Charged in the transaction that creates the task,
 * given back in the one that fails it (or deletes it unfinished) — exactly once, by the task row's
 * `refundedAt`.
 */

type QuotaContext = Pick<DomainContext, "db" | "clock" | "config">;

export function voiceDailyLimit(member: boolean): number {
  return member ? VOICE_DAILY_WORKS_MEMBER : VOICE_DAILY_WORKS;
}

/** Today's business day and the caller's cap, read before the transaction that charges. */
export async function voiceChargeTerms(ctx: QuotaContext, userId: number): Promise<{ day: string; limit: number }> {
  const now = ctx.clock.now();
  const user = await ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } });
  return {
    day: businessDay(now, ctx.config.BUSINESS_TZ),
    limit: voiceDailyLimit(isMemberAt(user?.memberEffectiveTime ?? null, now)),
  };
}

/**
 * One unit of the user's day, inside the caller's transaction: one conditional update, so parallel
 * requests take turns on the day's row and never pass the cap together. Over it: 50004, and the
 * caller's transaction rolls back whole.
 */
export async function chargeVoiceDay(tx: Tx, userId: number, terms: { day: string; limit: number }): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO voice_quota_days ("userId", day, used) VALUES (${userId}, ${terms.day}, 0)
    ON CONFLICT ("userId", day) DO NOTHING`;
  const within = await tx.$executeRaw`
    UPDATE voice_quota_days SET used = used + 1
    WHERE "userId" = ${userId} AND day = ${terms.day} AND used + 1 <= ${terms.limit}`;
  if (within === 0) throw new AppError(StatusCode.VoiceQuotaExceeded, { limit: terms.limit });
}

/** Gives one unit back to the day it counted against (the caller has just set the task's refundedAt). */
export async function refundVoiceDay(tx: Tx, userId: number, day: string | null): Promise<void> {
  if (!day) return;
  await tx.$executeRaw`
    UPDATE voice_quota_days SET used = GREATEST(0, used - 1) WHERE "userId" = ${userId} AND day = ${day}`;
}

export async function voiceQuota(ctx: QuotaContext, userId: number): Promise<VoiceQuota> {
  const now = ctx.clock.now();
  const day = businessDay(now, ctx.config.BUSINESS_TZ);
  const [row, user] = await Promise.all([
    ctx.db.voiceQuotaDay.findUnique({ where: { userId_day: { userId, day } } }),
    ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const member = isMemberAt(user?.memberEffectiveTime ?? null, now);
  return { used: row?.used ?? 0, limit: voiceDailyLimit(member), member };
}
