import { VOICE_JOB, type VoiceJob, ZVoiceJob } from "@yuelu/contracts";
import { failVoiceTask, retryVoiceTask, systemClock, VOICE_FAILURE_CODE } from "@yuelu/domain";
import { findSoundfont, QueueName } from "@yuelu/runtime";
import { UnrecoverableError } from "bullmq";
import { configuredTtsEngines } from "./engines/tts/factory.ts";
import { TtsEngineUnavailableError } from "./engines/tts/types.ts";
import { PermanentVoiceError, runVoiceJob, VoiceTaskGoneError } from "./jobs/voice.ts";
import { runTaskAttempt } from "./task-attempt.ts";
import type { TtsWorkerContext, TtsWorkerOptions } from "./tts-worker.ts";

/** BullMQ settings of the voice worker (defaults: one job at a time — they are CPU-heavy). */
export type VoiceWorkerOptions = Omit<TtsWorkerOptions, "timeoutMs">;

function failureOf(error: unknown): { reason: string; detail: string } {
  if (error instanceof PermanentVoiceError) return { reason: error.reason, detail: error.message };
  if (error instanceof TtsEngineUnavailableError) return { reason: "engine-unavailable", detail: error.message };
  return { reason: "failed", detail: (error as Error)?.message ?? String(error) };
}

/**
 * The "voice" queue: job "voice" `{kind, id}` — a trained voice or a sung/converted song (docs/voice.md).
 * Attempts and retries as every task's (task-attempt.ts); the final failure fails the task (40003 for
 * a voice, 40004 for a work) and gives its unit of the day back.
 */
export function startVoiceWorker(ctx: TtsWorkerContext, options: VoiceWorkerOptions = {}) {
  const domain = {
    db: ctx.db,
    clock: ctx.clock ?? systemClock,
    events: ctx.events,
    config: ctx.config,
    files: ctx.files,
  };
  const tts = ctx.tts ?? configuredTtsEngines(ctx.config);
  const worker = ctx.queues.worker<VoiceJob>(
    QueueName.Voice,
    async (job) => {
      if (job.name !== VOICE_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZVoiceJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid voice job payload");
      const { kind, id } = parsed.data;
      return runTaskAttempt(
        job,
        {
          label: "voice",
          ids: { kind, id },
          run: () =>
            runVoiceJob(parsed.data, {
              domain,
              files: ctx.files,
              tts,
              remote: ctx.config,
              soundfont: findSoundfont(ctx.config.VOICE_SOUNDFONT)?.path,
              log: ctx.log,
              progressEveryMs: options.progressEveryMs,
            }),
          isGone: (error) => error instanceof VoiceTaskGoneError,
          isPermanent: (error) => error instanceof PermanentVoiceError || error instanceof TtsEngineUnavailableError,
          failureOf,
          fail: (failure) => failVoiceTask(domain, kind, id, { code: VOICE_FAILURE_CODE[kind], ...failure }),
          retry: () => retryVoiceTask(domain, kind, id),
        },
        ctx.log,
      );
    },
    {
      concurrency: options.concurrency ?? 1,
      lockDuration: options.lockDuration ?? 120_000,
      stalledInterval: options.stalledInterval ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 2,
    },
  );
  worker.on("error", (error) => ctx.log.error({ err: error }, "voice worker error"));
  return worker;
}
