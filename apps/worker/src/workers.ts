import { TRANSCRIBE_JOB, type TranscriptionJob, ZTranscriptionJob } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type Config, type FileStore, type QueueBackend, QueueName } from "@yuelu/runtime";
import { UnrecoverableError } from "bullmq";
import { type AsrEngineResolver, configuredAsrEngines, engineAvailability } from "./engines/asr/factory.ts";
import { AsrEngineUnavailableError } from "./engines/asr/types.ts";
import { runHousekeeping } from "./jobs/housekeeping.ts";
import {
  failTranscription,
  failureOf,
  PermanentTranscriptionError,
  requeueTranscription,
  TaskGoneError,
  transcribe,
} from "./jobs/transcribe.ts";

export interface WorkerContext {
  db: Db;
  config: Config;
  queues: QueueBackend;
  files: FileStore;
  log: { info(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };
  /** ASR engines per language; default: the configured ones (configuredAsrEngines) */
  asr?: AsrEngineResolver;
}

/** BullMQ settings of the transcription worker (tests shorten the lock to see a killed worker sooner). */
export interface TranscriptionWorkerOptions {
  /** jobs at once per process (default TRANSCRIBE_CONCURRENCY) */
  concurrency?: number;
  /** a killed worker's job is taken back this long after its last lock renewal */
  lockDuration?: number;
  stalledInterval?: number;
  /** how often a job may be taken back from a dead worker before it fails */
  maxStalledCount?: number;
  /** least time between two progress writes of a job (ms) */
  progressEveryMs?: number;
}

const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

/**
 * Starts one BullMQ worker per queue this build handles and schedules the periodic jobs.
 * Used by the worker process (apps/worker/src/main.ts) and, on a single machine, inside the API.
 */
export async function startWorkers(
  ctx: WorkerContext,
  options: { transcription?: TranscriptionWorkerOptions } = {},
): Promise<void> {
  const { db, config, queues, log } = ctx;

  const housekeeping = queues.worker(QueueName.Housekeeping, async () => {
    const result = await runHousekeeping(db, {
      graceDays: config.ACCOUNT_DELETION_GRACE_DAYS,
      transcriptionQueue: queues.queue(QueueName.Transcription),
      deleteFiles: async (keys) => {
        await Promise.all(keys.map((key) => ctx.files.delete(key)));
      },
    });
    log.info(result, "housekeeping done");
    return result;
  });
  housekeeping.on("failed", (job, error) => log.error({ err: error, jobId: job?.id }, "housekeeping failed"));

  startTranscriptionWorker(ctx, options.transcription);

  // Idempotent: every worker process upserts the same scheduler id, so it runs once per period.
  await queues
    .queue(QueueName.Housekeeping)
    .upsertJobScheduler("housekeeping", { every: HOUSEKEEPING_EVERY_MS }, { name: "housekeeping" });
}

/**
 * The "transcription" queue: job "transcribe" `{taskId}`. The API enqueues it with attempts 3 and
 * exponential backoff; between attempts the task goes back to "in queue"; the final failure (or an
 * engine that is not installed, which is not retried) fails the task and refunds it.
 */
export function startTranscriptionWorker(ctx: WorkerContext, options: TranscriptionWorkerOptions = {}) {
  const { db, config, queues, files, log } = ctx;
  const asr = ctx.asr ?? configuredAsrEngines(config);
  // Load the configured models now, not when the first user's job arrives (moonshine: ~0.4 s).
  if (!ctx.asr) {
    for (const { language, available } of engineAvailability(config)) {
      if (!available) continue;
      asr(language)
        .ready?.(language)
        .catch((error) => log.error({ err: error, language }, "could not load the speech engine"));
    }
  }
  const worker = queues.worker<TranscriptionJob>(
    QueueName.Transcription,
    async (job) => {
      if (job.name !== TRANSCRIBE_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZTranscriptionJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid transcription job payload");
      const { taskId } = parsed.data;
      try {
        return await transcribe(taskId, { db, files, asr, log, progressEveryMs: options.progressEveryMs });
      } catch (error) {
        if (error instanceof TaskGoneError) return { status: "skipped", reason: error.message };
        const permanent = error instanceof AsrEngineUnavailableError || error instanceof PermanentTranscriptionError;
        const attempt = job.attemptsMade + 1;
        const final = permanent || attempt >= (job.opts.attempts ?? 1);
        log.error({ err: error, taskId, attempt, final }, "transcription attempt failed");
        if (final) await failTranscription(db, taskId, failureOf(error));
        else await requeueTranscription(db, taskId);
        if (permanent) throw new UnrecoverableError(failureOf(error).message);
        throw error;
      }
    },
    {
      concurrency: options.concurrency ?? config.TRANSCRIBE_CONCURRENCY,
      lockDuration: options.lockDuration ?? 60_000,
      stalledInterval: options.stalledInterval ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 2,
    },
  );
  worker.on("error", (error) => log.error({ err: error }, "transcription worker error"));
  return worker;
}
