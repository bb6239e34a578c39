import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";

/**
 * A delivery's life (docs/integrators.md "Webhooks"): pending → delivered (a 2xx answer) or, after
 * the last attempt of its schedule, failed. Each attempt is claimed first, so two workers holding a
 * job for the same attempt (a re-queued job, a sweep) never both send it; the webhook-id stays the
 * same throughout, so a receiver that saw an attempt whose answer was lost drops the repeat.
 */

type Ctx = Pick<DomainContext, "db" | "clock">;

/**
 * Waits after the 1st, 2nd, … failed attempt of a round (ms): roughly exponential, 11 attempts over
 * about a day (5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h), then the delivery fails.
 */
export const WEBHOOK_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000, 28_800_000,
];

/** How long one attempt may hold its delivery: the 10 s request and then some. */
const CLAIM_MS = 60_000;

/** Delivery rows (and their attempts) are kept this long, then housekeeping removes them. */
export const WEBHOOK_DELIVERY_KEEP_DAYS = 30;

export interface ClaimedDelivery {
  id: number;
  attempt: number;
  messageId: string;
  payload: unknown;
  url: string;
  secret: string;
}

/**
 * Attempt `attempt` of a delivery begins: it must be pending, that attempt must be its next one,
 * and no other worker may be sending it. Null otherwise (delivered, failed, deleted, a stale job).
 * An endpoint disabled meanwhile fails the delivery instead: it can be re-sent once enabled.
 */
export async function claimWebhookDelivery(ctx: Ctx, id: number, attempt: number): Promise<ClaimedDelivery | null> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.webhookDelivery.updateMany({
    where: {
      id,
      status: "pending",
      attempts: attempt - 1,
      OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
    },
    data: { lockedUntil: new Date(now.getTime() + CLAIM_MS) },
  });
  if (claimed.count === 0) return null;
  const row = await ctx.db.webhookDelivery.findUnique({ where: { id }, include: { endpoint: true } });
  if (!row) return null;
  if (!row.endpoint.enabled) {
    await ctx.db.webhookDelivery.update({
      where: { id },
      data: {
        status: "failed",
        lockedUntil: null,
        nextAttemptAt: null,
        finishedAt: now,
        lastError: "endpoint disabled",
      },
    });
    return null;
  }
  return {
    id,
    attempt,
    messageId: row.messageId,
    payload: row.payload,
    url: row.endpoint.url,
    secret: row.endpoint.secret,
  };
}

export interface AttemptOutcome {
  /** null: no answer */
  statusCode: number | null;
  responseBody: string;
  error: string;
  durationMs: number;
}

/**
 * Records an attempt's outcome and moves the delivery on: delivered on a 2xx; otherwise pending
 * with its next attempt after the schedule's wait, or failed when the schedule is spent. Returns
 * the next attempt to queue (with its delay), or null when there is none.
 */
export async function recordWebhookAttempt(
  ctx: Ctx,
  claimed: Pick<ClaimedDelivery, "id" | "attempt">,
  outcome: AttemptOutcome,
  schedule: readonly number[] = WEBHOOK_RETRY_SCHEDULE_MS,
): Promise<{ attempt: number; delayMs: number } | null> {
  const now = ctx.clock.now();
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  return ctx.db.$transaction(async (tx) => {
    // one recorder at a time per delivery (a worker that outlived its claim may race the next one)
    await tx.$queryRaw`SELECT id FROM webhook_deliveries WHERE id = ${claimed.id}::int FOR UPDATE`;
    const row = await tx.webhookDelivery.findUnique({ where: { id: claimed.id } });
    // deleted with its endpoint meanwhile, or recorded already by a worker that outlived its claim
    if (!row || row.attempts !== claimed.attempt - 1) return null;
    await tx.webhookAttempt.create({
      data: {
        deliveryId: row.id,
        attempt: claimed.attempt,
        createdAt: new Date(now.getTime() - outcome.durationMs),
        durationMs: outcome.durationMs,
        statusCode: outcome.statusCode,
        responseBody: outcome.responseBody,
        error: outcome.error,
      },
    });
    const waitMs = ok ? undefined : schedule[row.round];
    const data: Prisma.WebhookDeliveryUpdateInput = {
      attempts: claimed.attempt,
      round: row.round + 1,
      lockedUntil: null,
      lastStatusCode: outcome.statusCode,
      lastError: outcome.error,
    };
    if (ok || waitMs === undefined) {
      await tx.webhookDelivery.update({
        where: { id: row.id },
        data: { ...data, status: ok ? "delivered" : "failed", nextAttemptAt: null, finishedAt: now },
      });
      return null;
    }
    await tx.webhookDelivery.update({
      where: { id: row.id },
      data: { ...data, nextAttemptAt: new Date(now.getTime() + waitMs) },
    });
    return { attempt: claimed.attempt + 1, delayMs: waitMs };
  });
}

/**
 * Deliveries that are due and held by no worker: what the sweeper (housekeeping, a starting
 * worker) queues again, in case their job was lost — a worker that died, a Redis that was flushed,
 * a notice nobody heard. Queuing one that still has its job is harmless (same job id; the claim).
 */
export async function dueWebhookDeliveries(ctx: Ctx, limit = 500): Promise<{ id: number; attempt: number }[]> {
  const now = ctx.clock.now();
  const rows = await ctx.db.webhookDelivery.findMany({
    where: {
      status: "pending",
      nextAttemptAt: { lte: now },
      OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }],
    },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true, attempts: true },
  });
  return rows.map((r) => ({ id: r.id, attempt: r.attempts + 1 }));
}

/** Removes deliveries older than WEBHOOK_DELIVERY_KEEP_DAYS that are finished (their attempts go with them). */
export async function purgeOldWebhookDeliveries(ctx: Ctx): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - WEBHOOK_DELIVERY_KEEP_DAYS * 86_400_000);
  const { count } = await ctx.db.webhookDelivery.deleteMany({
    where: { createdAt: { lt: before }, status: { in: ["delivered", "failed"] } },
  });
  return count;
}
