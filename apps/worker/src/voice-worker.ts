import { type DomainContext, systemClock } from "@yuelu/domain";
import { findSoundfont } from "@yuelu/runtime";
import { configuredTtsEngines } from "./engines/tts/factory.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { runVoiceJob } from "./jobs/voice.ts";
import { startTaskWorker } from "./task-worker.ts";
import type { TtsWorkerContext, TtsWorkerOptions } from "./tts-worker.ts";

/** BullMQ settings of the voice worker (defaults: one job at a time — they are CPU-heavy). */
export type VoiceWorkerOptions = Omit<TtsWorkerOptions, "timeoutMs">;

/**
 * The "voice" queue: job "voice" `{kind, id}` — a trained voice or a sung/converted song (docs/voice.md).
 * Attempts and retries as every task's (the job table's `voice` row); the final failure fails the task
 * (40003 for a voice, 40004 for a work) and gives its unit of the day back.
 */
export function startVoiceWorker(ctx: TtsWorkerContext, options: VoiceWorkerOptions = {}) {
  const domain: DomainContext = {
    db: ctx.db,
    clock: ctx.clock ?? systemClock,
    events: ctx.events,
    config: ctx.config,
    files: ctx.files,
  };
  const tts = ctx.tts ?? configuredTtsEngines(ctx.config);
  return startTaskWorker(
    { queues: ctx.queues, log: ctx.log, domain },
    WORKER_JOBS.voice,
    (job) =>
      runVoiceJob(job, {
        domain,
        files: ctx.files,
        tts,
        remote: ctx.config,
        soundfont: findSoundfont(ctx.config.VOICE_SOUNDFONT)?.path,
        log: ctx.log,
        progressEveryMs: options.progressEveryMs,
      }),
    { ...options, concurrency: options.concurrency ?? 1 },
  );
}
