import { Prisma } from "@yuelu/db";
import type { Tx } from "../transaction.ts";

/**
 * Transcription time (README "Transcription quota and charging"): every second transcribed — an
 * upload's or live captions' — counts against the business day's cap and is drawn from the time
 * cards. This is the one mechanism both charges use (transcription-charge.ts, live-charge.ts).
 */

/** Why time could not be drawn: spec §8 codes 50002 (daily cap) or 20001 (card time). */
export class ChargeRefused extends Error {
  constructor(readonly code: 50002 | 20001) {
    super(`transcription charge refused: ${code}`);
  }
}

export interface DrawTerms {
  userId: number;
  /** business day 'YYYY-MM-DD' whose daily quota pays */
  day: string;
  dailyLimit: number;
  now: Date;
}

/** What one card gave to one charge: a refund gives exactly this back. */
export interface CardDraw {
  cardId: number;
  seconds: number;
}

async function ensureQuotaDay(tx: Tx, userId: number, day: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO quota_days ("userId", day, "secondsUsed") VALUES (${userId}, ${day}, 0)
    ON CONFLICT ("userId", day) DO NOTHING`;
}

/**
 * Draws `seconds` inside the caller's transaction: counted against the day's quota by a conditional
 * update (parallel draws cannot pass the cap together), taken from the valid time cards, the one that
 * expires first going first (rows locked FOR UPDATE). Returns what each card gave. Throws
 * ChargeRefused; the caller's transaction then rolls back whole.
 */
export async function drawSeconds(tx: Tx, terms: DrawTerms & { seconds: number }): Promise<CardDraw[]> {
  const { userId, seconds, day, dailyLimit, now } = terms;
  await ensureQuotaDay(tx, userId, day);
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
  const draws: CardDraw[] = [];
  let left = seconds;
  for (const card of cards) {
    if (left === 0) break;
    const take = Math.min(card.remaining, left);
    await tx.timeCard.update({ where: { id: card.id }, data: { remaining: { decrement: take } } });
    draws.push({ cardId: card.id, seconds: take });
    left -= take;
  }
  return draws;
}

/**
 * Gives drawn time back inside the caller's transaction: the day's quota `seconds` (never below
 * zero), and each card what `draws` says it gave — in the order a draw locks them (the day, then the
 * cards), so a give-back and a draw of the same user cannot deadlock.
 */
export async function returnSeconds(
  tx: Tx,
  back: { userId: number; day: string | null; seconds: number; draws: CardDraw[] },
): Promise<void> {
  if (back.day && back.seconds > 0) {
    await tx.$executeRaw`
      UPDATE quota_days SET "secondsUsed" = GREATEST(0, "secondsUsed" - ${back.seconds})
      WHERE "userId" = ${back.userId} AND day = ${back.day}`;
  }
  for (const d of back.draws) {
    if (d.seconds > 0) {
      await tx.timeCard.update({ where: { id: d.cardId }, data: { remaining: { increment: d.seconds } } });
    }
  }
}

/**
 * Seconds the user could draw now: what the day's cap leaves (`today`) and what valid cards hold
 * (`cards`). `lock`: the quota row and the cards are locked FOR UPDATE, so a draw later in the same
 * transaction finds exactly this much.
 */
export async function timeLeft(tx: Tx, terms: DrawTerms, lock = false): Promise<{ today: number; cards: number }> {
  const { userId, day, dailyLimit, now } = terms;
  if (lock) await ensureQuotaDay(tx, userId, day);
  const forUpdate = lock ? Prisma.sql`FOR UPDATE` : Prisma.empty;
  const used = await tx.$queryRaw<{ secondsUsed: number }[]>`
    SELECT "secondsUsed" FROM quota_days WHERE "userId" = ${userId} AND day = ${day} ${forUpdate}`;
  const cards = await tx.$queryRaw<{ remaining: number }[]>`
    SELECT remaining FROM time_cards
    WHERE "userId" = ${userId} AND "expiresAt" > ${now} AND remaining > 0
    ORDER BY "expiresAt", id ${forUpdate}`;
  return {
    today: Math.max(0, dailyLimit - (used[0]?.secondsUsed ?? 0)),
    cards: cards.reduce((sum, c) => sum + c.remaining, 0),
  };
}

/** The refusal when nothing is left: the daily cap first (it resets tomorrow), then card time. */
export function refusalOf(left: { today: number; cards: number }): 50002 | 20001 | null {
  if (left.today <= 0) return 50002;
  if (left.cards <= 0) return 20001;
  return null;
}
