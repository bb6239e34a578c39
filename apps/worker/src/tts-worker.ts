import {
  SYNTHESIZE_JOB,
  type TtsJob,
  ttsFailureReason,
  VOICE_SAMPLE_JOB,
  type VoiceSampleJob,
  ZTtsJob,
  ZVoiceSampleJob,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type Clock, type DomainContext, failTtsTask, retryTtsTask, systemClock } from "@yuelu/domain";
import { type Config, type EventPublisher, type FileStore, type QueueBackend, QueueName } from "@yuelu/runtime";
import { UnrecoverableError } from "bullmq";
import { configuredTtsEngines, type TtsEngineResolver, ttsEngineReports } from "./engines/tts/factory.ts";
import { TtsEngineUnavailableError } from "./engines/tts/types.ts";
import {
  isPermanentSynthesisFailure,
  synthesisFailureOf,
  synthesizeSpeech,
  TtsTaskGoneError,
} from "./jobs/synthesize-speech.ts";
import { generateVoiceSample } from "./jobs/voice-sample.ts";
import { runTaskAttempt } from "./task-attempt.ts";

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
 * The failedReason of a voice-sample job: a ttsFailureReason (e.g. "engine-unavailable/festival-missing"),
 * which try_listen reads back and words in the user's language.
 */
export function sampleFailureReason(error: unknown): string {
  if (error instanceof TtsEngineUnavailableError) return ttsFailureReason("engine-unavailable", error.problem);
  return synthesisFailureOf(error).reason;
}

/**
 * Two BullMQ workers. The "tts" queue: job "synthesize" `{taskId}` — the API enqueues it with
 * attempts 3 and exponential backoff; between attempts the task goes back to "in queue"; the final
 * failure (or one another attempt cannot fix: an engine not installed, nothing to say) fails the
 * task, which refunds it. The "tts-samples" queue: job "voice-sample" `{promptId}` (try_listen), one
 * attempt, whose failedReason says why — on its own queue so a sample never waits behind long texts.
 */
export function startTtsWorker(ctx: TtsWorkerContext, options: TtsWorkerOptions = {}) {
  const { config, queues, files, log } = ctx;
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
  const locks = {
    lockDuration: options.lockDuration ?? 60_000,
    stalledInterval: options.stalledInterval ?? 30_000,
    maxStalledCount: options.maxStalledCount ?? 2,
  };

  const synthesis = queues.worker<TtsJob>(
    QueueName.Tts,
    async (job) => {
      if (job.name !== SYNTHESIZE_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZTtsJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid synthesis job payload");
      const { taskId } = parsed.data;
      return runTaskAttempt(
        job,
        {
          label: "synthesis",
          ids: { taskId },
          run: () =>
            synthesizeSpeech(taskId, {
              domain,
              files,
              tts,
              remote: config,
              log,
              progressEveryMs: options.progressEveryMs,
              timeoutMs: options.timeoutMs,
            }),
          isGone: (error) => error instanceof TtsTaskGoneError,
          isPermanent: isPermanentSynthesisFailure,
          failureOf: synthesisFailureOf,
          fail: (failure) => failTtsTask(domain, taskId, failure),
          retry: () => retryTtsTask(domain, taskId),
        },
        log,
      );
    },
    { concurrency: options.concurrency ?? config.TTS_CONCURRENCY, ...locks },
  );
  synthesis.on("error", (error) => log.error({ err: error }, "tts worker error"));

  const samples = queues.worker<VoiceSampleJob>(
    QueueName.TtsSamples,
    async (job) => {
      if (job.name !== VOICE_SAMPLE_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZVoiceSampleJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid voice-sample job payload");
      try {
        return await generateVoiceSample(parsed.data.promptId, { domain, files, tts });
      } catch (error) {
        log.error({ err: error, promptId: parsed.data.promptId }, "voice sample failed");
        throw new UnrecoverableError(sampleFailureReason(error));
      }
    },
    { concurrency: 1, ...locks },
  );
  samples.on("error", (error) => log.error({ err: error }, "voice sample worker error"));

  return {
    synthesis,
    samples,
    waitUntilReady: () => Promise.all([synthesis.waitUntilReady(), samples.waitUntilReady()]),
    close: () => Promise.all([synthesis.close(), samples.close()]).then(() => undefined),
  };
}
