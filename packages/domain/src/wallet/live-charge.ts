import type { DomainContext } from "../context.ts";
import { visibleTo } from "../records/library.ts";
import { businessDay } from "../time.ts";
import { type Tx, transact } from "../transaction.ts";
import { dailyLimitOf } from "./quota.ts";
import { type CardDraw, drawSeconds, refusalOf, returnSeconds, timeLeft } from "./time-draw.ts";

/**
 * Live captions are transcription time (docs/live.md "Metering"): the worker charges a session in
 * prepaid blocks before it decodes their audio, through the same draw as an upload's transcription
 * (time-draw.ts); at the end the charge is settled to the audio decoded, rounded up to whole seconds.
 * A record made with captions on claims the session's charge as a credit, so it is paid once.
 */

/** Seconds paid ahead of decoding: one database write per block, never more than a block unspent. */
export const LIVE_BLOCK_SECONDS = 15;

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

export type LiveCharge = { granted: number } | { refused: 50002 | 20001 } | { gone: true };

interface LockedSession {
  userId: number;
  endedAt: Date | null;
  secondsCharged: number;
  quotaDay: string | null;
  lastDraws: CardDraw[];
  recordId: number | null;
}

/**
 * Locks a session's row. Every transaction here takes its rows in one order — session, record,
 * quota day, cards — as the transcription request does (record, quota day, cards): none can deadlock.
 */
export async function lockLiveSession(tx: Tx, id: string): Promise<LockedSession | undefined> {
  const rows = await tx.$queryRaw<LockedSession[]>`
    SELECT "userId", "endedAt", "secondsCharged", "quotaDay", "lastDraws", "recordId"
    FROM live_sessions WHERE id = ${id} FOR UPDATE`;
  return rows[0];
}

async function lockRecord(tx: Tx, fileId: number): Promise<{ liveCreditSeconds: number } | undefined> {
  const rows = await tx.$queryRaw<{ liveCreditSeconds: number }[]>`
    SELECT "liveCreditSeconds" FROM audio_records WHERE "fileId" = ${fileId} FOR UPDATE`;
  return rows[0];
}

/**
 * Pays the next block of a live session before its audio is decoded: `seconds`, or what is left when
 * less is (the daily cap or the cards), so a user's last seconds are usable too. Nothing left:
 * refused with 50002 or 20001. A session that has ended (or is another user's): gone.
 */
export async function chargeLiveBlock(
  ctx: Ctx,
  block: { sessionId: string; userId: number; seconds?: number },
): Promise<LiveCharge> {
  const { sessionId, userId, seconds = LIVE_BLOCK_SECONDS } = block;
  const now = ctx.clock.now();
  const terms = {
    userId,
    day: businessDay(now, ctx.config.BUSINESS_TZ),
    dailyLimit: await dailyLimitOf(ctx, userId),
    now,
  };
  return transact(ctx, async (tx): Promise<LiveCharge> => {
    const session = await lockLiveSession(tx, sessionId);
    if (!session || session.userId !== userId || session.endedAt) return { gone: true };
    if (session.recordId !== null) await lockRecord(tx, session.recordId);
    const left = await timeLeft(tx, terms, true);
    const granted = Math.min(seconds, left.today, left.cards);
    if (granted <= 0) return { refused: refusalOf(left) ?? 20001 };
    const draws = await drawSeconds(tx, { ...terms, seconds: granted });
    await tx.liveSession.update({
      where: { id: sessionId },
      data: {
        secondsCharged: { increment: granted },
        quotaDay: terms.day,
        lastDraws: draws.map(({ cardId, seconds }) => ({ cardId, seconds })),
        lastSeenAt: now,
      },
    });
    // a record that already claimed the session gets what it pays since
    if (session.recordId !== null) {
      await tx.audioRecord.updateMany({
        where: { fileId: session.recordId },
        data: { liveCreditSeconds: { increment: granted } },
      });
    }
    return { granted };
  });
}

/** Splits `seconds` off the end of `draws` (the card drawn last gives back first). */
function takeFromLast(draws: CardDraw[], seconds: number): { back: CardDraw[]; kept: CardDraw[] } {
  const kept = draws.map((d) => ({ ...d }));
  const back: CardDraw[] = [];
  let left = seconds;
  for (let i = kept.length - 1; i >= 0 && left > 0; i--) {
    const draw = kept[i]!;
    const take = Math.min(draw.seconds, left);
    draw.seconds -= take;
    back.push({ cardId: draw.cardId, seconds: take });
    left -= take;
  }
  return { back, kept: kept.filter((d) => d.seconds > 0) };
}

/**
 * Settles a session's charge to `decodedSeconds` inside the caller's transaction (the session row
 * locked): the unspent part of the last block goes back to its day and its cards. When a record has
 * claimed the session, only the credit it has not used yet can go back (and leaves the record).
 * Idempotent: a second settle finds nothing to give back. Returns the seconds given back.
 */
export async function settleLiveCharge(
  tx: Tx,
  sessionId: string,
  session: LockedSession,
  decodedSeconds: number,
): Promise<number> {
  const lastBlock = session.lastDraws.reduce((sum, d) => sum + d.seconds, 0);
  let excess = Math.min(session.secondsCharged - Math.max(0, decodedSeconds), lastBlock);
  if (session.recordId !== null && excess > 0) {
    const record = await lockRecord(tx, session.recordId);
    excess = Math.min(excess, record?.liveCreditSeconds ?? 0);
    if (excess > 0) {
      await tx.audioRecord.update({
        where: { fileId: session.recordId },
        data: { liveCreditSeconds: { decrement: excess } },
      });
    }
  }
  if (excess <= 0) return 0;
  const { back, kept } = takeFromLast(session.lastDraws, excess);
  await returnSeconds(tx, { userId: session.userId, day: session.quotaDay, seconds: excess, draws: back });
  await tx.liveSession.update({
    where: { id: sessionId },
    data: {
      secondsCharged: { decrement: excess },
      lastDraws: kept.map(({ cardId, seconds }) => ({ cardId, seconds })),
    },
  });
  return excess;
}

/** Session ids as an upload names them: one, or several joined by commas (captions that had to start anew). */
export function liveSessionIdsOf(field: string | null | undefined): string[] {
  if (!field) return [];
  const ids = field
    .split(",")
    .map((id) => id.trim())
    .filter((id) => id.length > 0 && id.length <= 200);
  return [...new Set(ids)].slice(0, 16);
}

/** The record is not the claimer's (or is in the recycle bin): the claim rolls back. */
class NotOwnRecord extends Error {}

/**
 * A record made with live captions on claims what its sessions were charged, once: each session is
 * claimed by one record only, and only by its own user's (a conditional update). The seconds become
 * the record's credit (AudioRecord.liveCreditSeconds), which its transcription uses before drawing
 * anything. `liveSessionId`: the upload's field, one id or several joined by commas; unknown,
 * foreign or already claimed ids give nothing. Returns the seconds credited.
 */
export async function claimLiveCredit(
  ctx: Pick<DomainContext, "db" | "events">,
  claim: { userId: number; fileId: number; liveSessionId: string | null | undefined },
): Promise<number> {
  const ids = liveSessionIdsOf(claim.liveSessionId);
  if (ids.length === 0) return 0;
  try {
    return await transact(ctx, async (tx) => {
      // sessions first, then the record: the order the live charge locks them in
      const claimed = await tx.liveSession.updateManyAndReturn({
        where: { id: { in: ids }, userId: claim.userId, recordId: null },
        data: { recordId: claim.fileId },
        select: { secondsCharged: true },
      });
      const credit = claimed.reduce((sum, s) => sum + s.secondsCharged, 0);
      if (claimed.length === 0) return 0;
      const record = await tx.audioRecord.updateMany({
        where: { fileId: claim.fileId, ...visibleTo(claim.userId) },
        data: { liveCreditSeconds: { increment: credit } },
      });
      if (record.count === 0) throw new NotOwnRecord();
      return credit;
    });
  } catch (error) {
    if (error instanceof NotOwnRecord) return 0;
    throw error;
  }
}
