import { TTS_MAX_CHARS, type TtsQuota } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { businessDay } from "../time.ts";
import type { Tx } from "../transaction.ts";
import { isMemberAt } from "../wallet/membership.ts";

/**
 * The daily text-to-speech quota (docs/tts.md "Quota"): characters per business day, members
 * getting more (TTS_DAILY_CHARS / TTS_DAILY_CHARS_MEMBER). A task's characters are charged in the
 * transaction that creates it and refunded in the one that fails it (or deletes it unfinished).
 */

type QuotaContext = Pick<DomainContext, "db" | "clock" | "config">;

/** start_tts refused: the day's characters would pass the cap (code 50003). */
export class TtsChargeRefused extends Error {
  readonly code = 50003;
  constructor(readonly limit: number) {
    super(`text-to-speech charge refused: daily limit ${limit}`);
  }
}

export function ttsDailyLimit(config: QuotaContext["config"], member: boolean): number {
  return member ? config.TTS_DAILY_CHARS_MEMBER : config.TTS_DAILY_CHARS;
}

export async function ttsDailyLimitOf(ctx: QuotaContext, userId: number, db: QuotaContext["db"] | Tx = ctx.db) {
  const user = await db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } });
  return ttsDailyLimit(ctx.config, isMemberAt(user?.memberEffectiveTime ?? null, ctx.clock.now()));
}

/**
 * Charges `chars` against the user's day inside the caller's transaction: one conditional update,
 * so parallel requests cannot pass the cap together (the row lock makes them take turns, and each
 * re-checks the sum its predecessor committed). Throws TtsChargeRefused; the caller's transaction
 * then rolls back whole (no task row is left).
 */
export async function chargeTts(
  tx: Tx,
  input: { userId: number; taskId: number; chars: number; day: string; limit: number },
): Promise<void> {
  const { userId, taskId, chars, day, limit } = input;
  await tx.$executeRaw`
    INSERT INTO tts_quota_days ("userId", day, "charsUsed") VALUES (${userId}, ${day}, 0)
    ON CONFLICT ("userId", day) DO NOTHING`;
  const within = await tx.$executeRaw`
    UPDATE tts_quota_days SET "charsUsed" = "charsUsed" + ${chars}
    WHERE "userId" = ${userId} AND day = ${day} AND "charsUsed" + ${chars} <= ${limit}`;
  if (within === 0) throw new TtsChargeRefused(limit);
  await tx.ttsTask.update({ where: { id: taskId }, data: { charsCharged: chars, quotaDay: day } });
}

/**
 * Gives a task's characters back to the day they counted against, inside the caller's transaction
 * (the one that fails or deletes the task), exactly once however often it is called.
 */
export async function refundTts(tx: Tx, taskId: number, now: Date): Promise<boolean> {
  const [task] = await tx.ttsTask.updateManyAndReturn({
    where: { id: taskId, refundedAt: null, charsCharged: { gt: 0 } },
    data: { refundedAt: now },
    select: { userId: true, quotaDay: true, charsCharged: true },
  });
  if (!task) return false;
  if (task.quotaDay) {
    await tx.$executeRaw`
      UPDATE tts_quota_days SET "charsUsed" = GREATEST(0, "charsUsed" - ${task.charsCharged})
      WHERE "userId" = ${task.userId} AND day = ${task.quotaDay}`;
  }
  return true;
}

/** The user's characters today and the cap that applies now. */
export async function ttsQuota(ctx: QuotaContext, userId: number): Promise<TtsQuota> {
  const now = ctx.clock.now();
  const day = businessDay(now, ctx.config.BUSINESS_TZ);
  const [row, user] = await Promise.all([
    ctx.db.ttsQuotaDay.findUnique({ where: { userId_day: { userId, day } } }),
    ctx.db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } }),
  ]);
  const member = isMemberAt(user?.memberEffectiveTime ?? null, now);
  return {
    charsUsedToday: row?.charsUsed ?? 0,
    charsLimitToday: ttsDailyLimit(ctx.config, member),
    maxChars: TTS_MAX_CHARS,
    member,
  };
}
