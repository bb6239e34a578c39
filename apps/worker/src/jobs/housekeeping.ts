import {
  accountsDueForPurge,
  backfillSearchIndex,
  closeExpiredOrders,
  type DomainContext,
  failStuckNoteTasks,
  failStuckTranscriptions,
  failStuckTtsTasks,
  failStuckVoiceTasks,
  type JobLookup,
  purgeAccount,
  purgeOldWebhookDeliveries,
  removeExpiredStorageHolds,
} from "@yuelu/domain";
import { countPayment, sweepDeadWorkers, type UploadArea } from "@yuelu/runtime";

export interface HousekeepingResult {
  expiredSessions: number;
  oldSmsCodes: number;
  purgedAccounts: number;
  /** transcription tasks stuck in queue/transcribing that were failed and refunded */
  failedStuckTasks: number;
  /** text-to-speech tasks stuck in queue/running that were failed and refunded */
  failedStuckTtsTasks: number;
  /** trained voices and voice works stuck in queue/running that were failed and refunded */
  failedStuckVoiceTasks: number;
  /** notes tasks stuck in queue/running (or whose job is gone) that were failed and their tokens settled */
  failedStuckNoteTasks: number;
  /** heartbeat rows of workers gone for a day */
  deadWorkers: number;
  /** unpaid orders past their expiry, closed (tradeStatus 3) */
  expiredOrders: number;
  /** unfinished resumable uploads past UPLOAD_EXPIRY_HOURS, removed (their storage holds stopped counting then) */
  expiredUploads: number;
  /** storage holds past their expiry, removed (docs/records-api.md "Storage per user") */
  expiredStorageHolds: number;
  /** webhook deliveries that were due with no job (lost with a worker or a notice), queued again */
  requeuedWebhooks: number;
  /** finished webhook deliveries older than WEBHOOK_DELIVERY_KEEP_DAYS, removed with their attempts */
  oldWebhookDeliveries: number;
  /** transcripts with no search rows (written before search existed), indexed (docs/search.md "Backfill") */
  searchBackfilled: number;
}

const DAY_MS = 86_400_000;

/**
 * Periodic clean-up: expired sessions, SMS codes older than a day, accounts whose deletion grace
 * period is over (purged: every process's caches hear of it through the event bus), transcription
 * tasks stuck far longer than possible (failed and refunded; with `transcriptionQueue`, also those
 * whose job is gone), text-to-speech, voice and notes tasks likewise (`ttsQueue`, `voiceQueue`, `notesQueue`), unpaid orders past their expiry,
 * unfinished resumable uploads past their expiry (`uploads`: the store's upload area), webhook
 * deliveries whose job was lost (queued again: `requeueWebhooks`) and those past their keeping time, and
 * the heartbeats of dead workers. Plain function so tests can run it directly.
 */
export async function runHousekeeping(
  domain: DomainContext,
  options: {
    transcriptionQueue?: JobLookup;
    ttsQueue?: JobLookup;
    voiceQueue?: JobLookup;
    notesQueue?: JobLookup;
    uploads?: Pick<UploadArea, "deleteExpired">;
    /** the webhook worker's sweep (webhook-worker.ts requeueDue) */
    requeueWebhooks?: () => Promise<number>;
  } = {},
): Promise<HousekeepingResult> {
  const { db } = domain;
  const now = domain.clock.now();
  const sessions = await db.session.deleteMany({ where: { expiresAt: { lte: now } } });
  const codes = await db.smsCode.deleteMany({ where: { createdAt: { lte: new Date(now.getTime() - DAY_MS) } } });
  const due = await accountsDueForPurge(domain);
  for (const userId of due) await purgeAccount(domain, userId);
  const failedStuckTasks = await failStuckTranscriptions(domain, { queue: options.transcriptionQueue });
  const failedStuckTtsTasks = await failStuckTtsTasks(domain, { queue: options.ttsQueue });
  const failedStuckVoiceTasks = await failStuckVoiceTasks(domain, { queue: options.voiceQueue });
  const failedStuckNoteTasks = await failStuckNoteTasks(domain, { queue: options.notesQueue });
  const deadWorkers = await sweepDeadWorkers(db, now);
  const closedOrders = await closeExpiredOrders(domain);
  for (const order of closedOrders) countPayment(order.provider, "closed");
  const expiredOrders = closedOrders.length;
  const expiredUploads = options.uploads ? await options.uploads.deleteExpired() : 0;
  const expiredStorageHolds = await removeExpiredStorageHolds(db, now);
  const requeuedWebhooks = options.requeueWebhooks ? await options.requeueWebhooks() : 0;
  const oldWebhookDeliveries = await purgeOldWebhookDeliveries(domain);
  // at most 1 000 records a run, so one run stays short on a large old install; the next run goes on.
  const searchBackfilled = await backfillSearchIndex(db, { batch: 100, maxBatches: 10 });
  return {
    expiredSessions: sessions.count,
    oldSmsCodes: codes.count,
    purgedAccounts: due.length,
    failedStuckTasks,
    failedStuckTtsTasks,
    failedStuckVoiceTasks,
    failedStuckNoteTasks,
    deadWorkers,
    expiredOrders,
    expiredUploads,
    expiredStorageHolds,
    requeuedWebhooks,
    oldWebhookDeliveries,
    searchBackfilled,
  };
}
