import type { Tx } from "../transaction.ts";

/** Why a transcription could not be charged: spec §8 codes 50002 (daily cap) or 20001 (card time). */
export class ChargeRefused extends Error {
  constructor(readonly code: 50002 | 20001) {
    super(`transcription charge refused: ${code}`);
  }
}

export interface ChargeInput {
  userId: number;
  taskId: number;
  seconds: number;
  /** business day 'YYYY-MM-DD' whose daily quota pays */
  day: string;
  dailyLimit: number;
  now: Date;
}

/**
 * Charges one transcription inside the caller's transaction: `seconds` against the day's quota
 * (a conditional update, so parallel charges cannot pass the cap together) and against time cards,
 * the one that expires first going first (rows locked FOR UPDATE). Records what each card gave, so a
 * refund returns exactly that. Throws ChargeRefused; the caller's transaction then rolls back whole.
 */
export async function chargeTranscription(tx: Tx, input: ChargeInput): Promise<void> {
  const { userId, taskId, seconds, day, dailyLimit, now } = input;
  await tx.$executeRaw`
    INSERT INTO quota_days ("userId", day, "secondsUsed") VALUES (${userId}, ${day}, 0)
    ON CONFLICT ("userId", day) DO NOTHING`;
  const withinCap = await tx.$executeRaw`
    UPDATE quota_days SET "secondsUsed" = "secondsUsed" + ${seconds}
    WHERE "userId" = ${userId} AND day = ${day} AND "secondsUsed" + ${seconds} <= ${dailyLimit}`;
  if (withinCap === 0) throw new ChargeRefused(50002);

  const cards = await tx.$queryRaw<{ id: number; remaining: number }[]>`
    SELECT id, remaining FROM time_cards
    WHERE "userId" = ${userId} AND "expiresAt" > ${now} AND remaining > 0
    ORDER BY "expiresAt", id
    FOR UPDATE`;
  if (cards.reduce((sum, c) => sum + c.remaining, 0) < seconds) throw new ChargeRefused(20001);
  let left = seconds;
  for (const card of cards) {
    if (left === 0) break;
    const take = Math.min(card.remaining, left);
    await tx.timeCard.update({ where: { id: card.id }, data: { remaining: { decrement: take } } });
    await tx.timeCardDeduction.create({ data: { taskId, cardId: card.id, seconds: take } });
    left -= take;
  }
  await tx.transcriptionTask.update({ where: { id: taskId }, data: { secondsCharged: seconds, quotaDay: day } });
}

/**
 * Gives a task's charge back inside the caller's transaction — the one that moves the task to the
 * state that justifies it (failed, or deleted with its record) — exactly once however often it is
 * called: the cards get what they gave, the day's quota what it counted. Returns whether it refunded.
 */
export async function refundTranscription(tx: Tx, taskId: number, now: Date): Promise<boolean> {
  const claimed = await tx.transcriptionTask.updateMany({
    where: { id: taskId, refundedAt: null, secondsCharged: { gt: 0 } },
    data: { refundedAt: now },
  });
  if (claimed.count === 0) return false;
  const task = await tx.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } });
  const deductions = await tx.timeCardDeduction.findMany({ where: { taskId } });
  for (const d of deductions) {
    await tx.timeCard.update({ where: { id: d.cardId }, data: { remaining: { increment: d.seconds } } });
  }
  if (task.quotaDay) {
    await tx.$executeRaw`
      UPDATE quota_days SET "secondsUsed" = GREATEST(0, "secondsUsed" - ${task.secondsCharged})
      WHERE "userId" = ${task.userId} AND day = ${task.quotaDay}`;
  }
  return true;
}
