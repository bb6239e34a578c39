import type { DomainContext } from "../context.ts";
import { businessDay } from "../time.ts";
import { transact } from "../transaction.ts";
import { lockLiveSession, settleLiveCharge } from "../wallet/live-charge.ts";
import { dailyLimitOf } from "../wallet/quota.ts";
import { refusalOf, timeLeft } from "../wallet/time-draw.ts";

/**
 * Live-caption sessions across every node (docs/live.md "Metering"): one LiveSession row each,
 * written by the worker that decodes it. A session is open (its connection is up), waiting (its
 * connection dropped: it waits for a resume) or ended. Open and waiting ones count against the
 * user's LIVE_MAX_PER_USER, wherever they run.
 */

/**
 * A worker refreshes its sessions' lastSeenAt every LIVE_SESSION_TOUCH_MS; one not seen for
 * LIVE_SESSION_STALE_MS is no longer counted: its worker died with it.
 */
export const LIVE_SESSION_TOUCH_MS = 15_000;
export const LIVE_SESSION_STALE_MS = 60_000;

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

export type LiveAdmission = { admitted: true; replaced: string[] } | { refused: 10003 | 50002 | 20001 };

export type LiveEndReason = "done" | "expired" | "replaced" | "refused" | "closed";

/** The user's sessions that still hold a place: not ended, and their worker alive. */
function holdingPlace(userId: number, now: Date) {
  return { userId, endedAt: null, lastSeenAt: { gt: new Date(now.getTime() - LIVE_SESSION_STALE_MS) } };
}

/**
 * Admits a new session, or says why not: no transcription time left today (50002) or on the cards
 * (20001); the user already holds `maxPerUser` sessions that are all open (10003). When some of
 * them wait for a resume, the oldest waiting ones end to make room (`replaced`: their workers drop
 * them), so dropped sockets never lock the owner out. One admission per user at a time on every
 * node (an advisory lock), so parallel starts cannot pass the limit together.
 */
export async function admitLiveSession(
  ctx: Ctx,
  session: { id: string; userId: number; workerId: string; language: string; maxPerUser: number },
): Promise<LiveAdmission> {
  const { id, userId, workerId, language, maxPerUser } = session;
  const now = ctx.clock.now();
  const terms = {
    userId,
    day: businessDay(now, ctx.config.BUSINESS_TZ),
    dailyLimit: await dailyLimitOf(ctx, userId),
    now,
  };
  return transact(ctx, async (tx): Promise<LiveAdmission> => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('live_sessions'), ${userId}::int)`;
    const refusal = refusalOf(await timeLeft(tx, terms));
    if (refusal) return { refused: refusal };
    const held = await tx.liveSession.findMany({
      where: holdingPlace(userId, now),
      orderBy: [{ startedAt: "asc" }, { id: "asc" }],
      select: { id: true, waitingSince: true },
    });
    const over = held.length - maxPerUser + 1;
    const replaced = over > 0 ? held.filter((h) => h.waitingSince !== null).slice(0, over) : [];
    if (replaced.length < over) return { refused: 10003 };
    if (replaced.length > 0) {
      await tx.liveSession.updateMany({
        where: { id: { in: replaced.map((r) => r.id) }, endedAt: null },
        data: { endedAt: now, endReason: "replaced" },
      });
    }
    await tx.liveSession.create({ data: { id, userId, workerId, language, startedAt: now, lastSeenAt: now } });
    return { admitted: true, replaced: replaced.map((r) => r.id) };
  });
}

/** The session's connection came back: open again. False when it has ended meanwhile (or is not the user's). */
export async function resumeLiveSession(ctx: Pick<Ctx, "db" | "clock">, id: string, userId: number): Promise<boolean> {
  const { count } = await ctx.db.liveSession.updateMany({
    where: { id, userId, endedAt: null },
    data: { waitingSince: null, lastSeenAt: ctx.clock.now() },
  });
  return count === 1;
}

/** The session's connection dropped: it waits for a resume (and is the first to give way to a new start). */
export async function markLiveSessionWaiting(ctx: Pick<Ctx, "db" | "clock">, id: string): Promise<void> {
  await ctx.db.liveSession.updateMany({ where: { id, endedAt: null }, data: { waitingSince: ctx.clock.now() } });
}

/**
 * A worker still holds these sessions: they stay counted. Answers those that ended elsewhere (a new
 * start of their user replaced them), which the worker then drops.
 */
export async function touchLiveSessions(ctx: Pick<Ctx, "db" | "clock">, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const seen = await ctx.db.liveSession.updateManyAndReturn({
    where: { id: { in: ids }, endedAt: null },
    data: { lastSeenAt: ctx.clock.now() },
    select: { id: true },
  });
  const open = new Set(seen.map((s) => s.id));
  return ids.filter((id) => !open.has(id));
}

/**
 * The worker let the session go: ended (unless it already was), and its charge settled to the
 * audio decoded, `decodedSeconds` (whole seconds, rounded up): the unspent part of the last block
 * goes back. Returns the seconds given back.
 */
export async function endLiveSession(
  ctx: Ctx,
  end: { id: string; reason: LiveEndReason; decodedSeconds: number },
): Promise<number> {
  return transact(ctx, async (tx) => {
    const session = await lockLiveSession(tx, end.id);
    if (!session) return 0;
    const givenBack = await settleLiveCharge(tx, end.id, session, end.decodedSeconds);
    if (!session.endedAt) {
      await tx.liveSession.update({
        where: { id: end.id },
        data: { endedAt: ctx.clock.now(), endReason: end.reason, waitingSince: null },
      });
    }
    return givenBack;
  });
}
