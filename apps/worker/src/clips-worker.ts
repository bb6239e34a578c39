import { systemClock } from "@yuelu/domain";
import { cutClip } from "./jobs/cut-clip.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { startTaskWorker } from "./task-worker.ts";
import type { TtsWorkerContext } from "./tts-worker.ts";

/** BullMQ settings of the clips worker. */
export interface ClipsWorkerOptions {
  /** clips cut at once per process (default 1: ffmpeg takes a core) */
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
}

/**
 * The "clips" queue: job "cut-clip" `{clipId}` (docs/clips.md), the job table's `clip` row: the record's
 * file cut from the clip's start to its end by ffmpeg (jobs/cut-clip.ts), retried with backoff; a missing
 * or unreadable source fails the clip at once. Nothing is charged, so nothing is refunded.
 */
export function startClipsWorker(ctx: Omit<TtsWorkerContext, "tts">, options: ClipsWorkerOptions = {}) {
  const domain = { db: ctx.db, clock: ctx.clock ?? systemClock, events: ctx.events, config: ctx.config };
  return startTaskWorker(
    { queues: ctx.queues, log: ctx.log, domain },
    WORKER_JOBS.clip,
    ({ clipId }) => cutClip(clipId, { domain, files: ctx.files, log: ctx.log }),
    { ...options, concurrency: options.concurrency ?? 1 },
  );
}
