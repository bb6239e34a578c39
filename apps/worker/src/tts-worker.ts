import type { Db } from "@yuelu/db";
import { type Clock, type DomainContext, systemClock } from "@yuelu/domain";
import type { Config, EventPublisher, FileStore, QueueBackend } from "@yuelu/runtime";
import { configuredTtsEngines, type TtsEngineResolver, ttsEngineReports } from "./engines/tts/factory.ts";
import { synthesizeSpeech } from "./jobs/synthesize-speech.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { generateVoiceSample } from "./jobs/voice-sample.ts";
import { startTaskWorker } from "./task-worker.ts";

export interface TtsWorkerContext {
  db: Db;
  config: Config;
  queues: QueueBackend;
  files: FileStore;
  events: EventPublisher;
  log: {
    info(obj: unknown, msg?: string): void;
    warn(obj: unknown, msg?: string): void;
    error(obj: unknown, msg?: string): void;
  };
  clock?: Clock;
  /** TTS engines by name; default: the configured ones (configuredTtsEngines) */
  tts?: TtsEngineResolver;
}

/** BullMQ settings of the TTS worker (tests shorten the lock to see a killed worker sooner). */
export interface TtsWorkerOptions {
  /** jobs at once per process (default TTS_CONCURRENCY) */
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
  progressEveryMs?: number;
  /** the longest one synthesis attempt may run (default: from the task's length) */
  timeoutMs?: number;
}

/**
 * Two BullMQ workers, both rows of the job table. The "tts" queue: job "synthesize" `{taskId}`, retried
 * with backoff; between attempts the task goes back to "in queue"; the final failure (or one another
 * attempt cannot fix: an engine not installed, nothing to say) fails the task, which refunds it. The
 * "tts-samples" queue: job "voice-sample" `{promptId}` (try_listen), one attempt, whose failedReason
 * says why — on its own queue so a sample never waits behind long texts.
 */
export function startTtsWorker(ctx: TtsWorkerContext, options: TtsWorkerOptions = {}) {
  const { config, files, log } = ctx;
  const domain: DomainContext = {
    db: ctx.db,
    clock: ctx.clock ?? systemClock,
    events: ctx.events,
    config,
    files,
  };
  const tts = ctx.tts ?? configuredTtsEngines(config);
  if (!ctx.tts) {
    // Say what is missing, with paths and commands, for the operator.
    ttsEngineReports(config, (detail, engine, language) => log.warn({ engine, language }, detail));
  }
  const workerCtx = { queues: ctx.queues, log, domain };
  const synthesis = startTaskWorker(
    workerCtx,
    WORKER_JOBS.tts,
    ({ taskId }) =>
      synthesizeSpeech(taskId, {
        domain,
        files,
        tts,
        remote: config,
        log,
        progressEveryMs: options.progressEveryMs,
        timeoutMs: options.timeoutMs,
      }),
    { ...options, concurrency: options.concurrency ?? config.TTS_CONCURRENCY },
  );
  const samples = startTaskWorker(
    workerCtx,
    WORKER_JOBS.ttsSample,
    ({ promptId }) => generateVoiceSample(promptId, { domain, files, tts }),
    { ...options, concurrency: 1 },
  );

  return {
    synthesis,
    samples,
    waitUntilReady: () => Promise.all([synthesis.waitUntilReady(), samples.waitUntilReady()]),
    close: () => Promise.all([synthesis.close(), samples.close()]).then(() => undefined),
  };
}
