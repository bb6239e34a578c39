import type { Tx } from "../transaction.ts";
import { drawSeconds, returnSeconds } from "./time-draw.ts";

export { ChargeRefused } from "./time-draw.ts";

export interface ChargeInput {
  userId: number;
  taskId: number;
  seconds: number;
  /** business day 'YYYY-MM-DD' whose daily quota pays */
  day: string;
  dailyLimit: number;
  now: Date;
  /**
   * The record's live-caption credit (claimLiveCredit): the seconds its live captions already paid.
   * They are used first and only the rest is drawn, so a recording made with captions on is paid once.
   */
  liveCredit?: { fileId: number; seconds: number };
}

/**
 * Charges one transcription inside the caller's transaction: the record's live credit first, then
 * the rest drawn from the day's quota and the time cards (time-draw.ts). Records what each card gave
 * and how much credit was used, so a refund returns exactly that. Throws ChargeRefused; the caller's
 * transaction then rolls back whole.
 */
export async function chargeTranscription(tx: Tx, input: ChargeInput): Promise<void> {
  const { userId, taskId, seconds, day, dailyLimit, now, liveCredit } = input;
  const creditUsed = Math.max(0, Math.min(liveCredit?.seconds ?? 0, seconds));
  const charged = seconds - creditUsed;
  const draws = charged > 0 ? await drawSeconds(tx, { userId, seconds: charged, day, dailyLimit, now }) : [];
  for (const draw of draws) {
    await tx.timeCardDeduction.create({ data: { taskId, cardId: draw.cardId, seconds: draw.seconds } });
  }
  if (liveCredit && creditUsed > 0) {
    await tx.audioRecord.update({
      where: { fileId: liveCredit.fileId },
      data: { liveCreditSeconds: { decrement: creditUsed } },
    });
  }
  await tx.transcriptionTask.update({
    where: { id: taskId },
    data: { secondsCharged: charged, quotaDay: day, liveCreditUsed: creditUsed },
  });
}

/**
 * Gives a task's charge back inside the caller's transaction — the one that moves the task to the
 * state that justifies it (failed, or deleted with its record) — exactly once however often it is
 * called: the cards get what they gave, the day's quota what it counted, the record the live credit
 * the task used. Returns whether it refunded.
 */
export async function refundTranscription(tx: Tx, taskId: number, now: Date): Promise<boolean> {
  const claimed = await tx.transcriptionTask.updateMany({
    where: { id: taskId, refundedAt: null, OR: [{ secondsCharged: { gt: 0 } }, { liveCreditUsed: { gt: 0 } }] },
    data: { refundedAt: now },
  });
  if (claimed.count === 0) return false;
  const task = await tx.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } });
  const deductions = await tx.timeCardDeduction.findMany({ where: { taskId } });
  await returnSeconds(tx, { userId: task.userId, day: task.quotaDay, seconds: task.secondsCharged, draws: deductions });
  if (task.liveCreditUsed > 0) {
    await tx.audioRecord.updateMany({
      where: { fileId: task.fileId },
      data: { liveCreditSeconds: { increment: task.liveCreditUsed } },
    });
  }
  return true;
}
