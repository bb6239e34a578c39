import {
  accountsDueForPurge,
  backfillSearchIndex,
  closeExpiredOrders,
  type DomainContext,
  purgeAccount,
  purgeOldWebhookDeliveries,
  removeExpiredStorageHolds,
} from "@yuelu/domain";
import { countPayment, type QueueBackend, sweepDeadWorkers, type UploadArea } from "@yuelu/runtime";
import { type StuckReport, WORKER_JOB_ROWS } from "./table.ts";

/** What each kind's stuck rule gave up or queued again, under the name its row reports it (table.ts). */
type StuckCounts = Record<StuckReport, number>;

export interface HousekeepingResult extends StuckCounts {
  expiredSessions: number;
  oldSmsCodes: number;
  purgedAccounts: number;
  /** heartbeat rows of workers gone for a day */
  deadWorkers: number;
  /** unpaid orders past their expiry, closed (tradeStatus 3) */
  expiredOrders: number;
  /** unfinished resumable uploads past UPLOAD_EXPIRY_HOURS, removed (their storage holds stopped counting then) */
  expiredUploads: number;
  /** storage holds past their expiry, removed (docs/records-api.md "Storage per user") */
  expiredStorageHolds: number;
  /** finished webhook deliveries older than WEBHOOK_DELIVERY_KEEP_DAYS, removed with their attempts */
  oldWebhookDeliveries: number;
  /** transcripts with no search rows (written before search existed), indexed (docs/search.md "Backfill") */
  searchBackfilled: number;
}

const DAY_MS = 86_400_000;

/**
 * Periodic clean-up: expired sessions, SMS codes older than a day, accounts whose deletion grace
 * period is over (purged: every process's caches hear of it through the event bus), every job kind's
 * stuck rule (the job table's rows: tasks stuck far longer than possible are failed and refunded, and
 * with `queues` also those whose job is gone; webhook deliveries whose job was lost are queued again),
 * unpaid orders past their expiry, unfinished resumable uploads past their expiry (`uploads`: the
 * store's upload area), webhook deliveries past their keeping time, and the heartbeats of dead workers.
 * Plain function so tests can run it directly.
 */
export async function runHousekeeping(
  domain: DomainContext,
  options: {
    /** the queues, so the stuck rules look at each task's job (without them only time limits apply) */
    queues?: Pick<QueueBackend, "queue">;
    uploads?: Pick<UploadArea, "deleteExpired">;
  } = {},
): Promise<HousekeepingResult> {
  const { db } = domain;
  const now = domain.clock.now();
  const sessions = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  const codes = await db.smsCode.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - DAY_MS) } } });
  const due = await accountsDueForPurge(domain);
  for (const userId of due) await purgeAccount(domain, userId);
  const stuck = await sweepStuckJobs(domain, options.queues);
  const deadWorkers = await sweepDeadWorkers(db, now);
  const closedOrders = await closeExpiredOrders(domain);
  for (const order of closedOrders) countPayment(order.provider, "closed");
  const expiredOrders = closedOrders.length;
  const expiredUploads = options.uploads ? await options.uploads.deleteExpired() : 0;
  const expiredStorageHolds = await removeExpiredStorageHolds(db, now);
  const oldWebhookDeliveries = await purgeOldWebhookDeliveries(domain);
  // at most 1 000 records a run, so one run stays short on a large old install; the next run goes on.
  const searchBackfilled = await backfillSearchIndex(db, { batch: 100, maxBatches: 10 });
  return {
    expiredSessions: sessions.count,
    oldSmsCodes: codes.count,
    purgedAccounts: due.length,
    ...stuck,
    deadWorkers,
    expiredOrders,
    expiredUploads,
    expiredStorageHolds,
    oldWebhookDeliveries,
    searchBackfilled,
  };
}

/** Every row's stuck rule, one kind after the other (each is a short sweep of its open tasks). */
async function sweepStuckJobs(domain: DomainContext, queues?: Pick<QueueBackend, "queue">): Promise<StuckCounts> {
  const counts: Partial<StuckCounts> = {};
  for (const { stuck } of WORKER_JOB_ROWS) {
    if (stuck) counts[stuck.report as StuckReport] = await stuck.sweep(domain, queues);
  }
  return counts as StuckCounts;
}
