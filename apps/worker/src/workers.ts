import type { Db } from "@yuelu/db";
import { type Config, type FileStore, type QueueBackend, QueueName } from "@yuelu/runtime";
import { runHousekeeping } from "./jobs/housekeeping.ts";

export interface WorkerContext {
  db: Db;
  config: Config;
  queues: QueueBackend;
  files: FileStore;
  log: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
}

const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

/**
 * Starts one BullMQ worker per queue this build handles and schedules the periodic jobs.
 * Used by the worker process (apps/worker/src/main.ts) and, on a single machine, inside the API.
 */
export async function startWorkers(ctx: WorkerContext): Promise<void> {
  const { db, config, queues, log } = ctx;

  const housekeeping = queues.worker(QueueName.Housekeeping, async () => {
    const result = await runHousekeeping(db, { graceDays: config.ACCOUNT_DELETION_GRACE_DAYS });
    log.info(result, "housekeeping done");
    return result;
  });
  housekeeping.on("failed", (job, error) => log.error({ err: error, jobId: job?.id }, "housekeeping failed"));

  // Idempotent: every worker process upserts the same scheduler id, so it runs once per period.
  await queues
    .queue(QueueName.Housekeeping)
    .upsertJobScheduler("housekeeping", { every: HOUSEKEEPING_EVERY_MS }, { name: "housekeeping" });
}
