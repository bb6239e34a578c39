import { systemClock } from "@yuelu/domain";
import { configuredLlm, type LlmClient } from "./engines/llm/index.ts";
import { runNoteJob } from "./jobs/notes.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { startTaskWorker } from "./task-worker.ts";
import type { TtsWorkerContext } from "./tts-worker.ts";

export interface NotesWorkerContext extends Omit<TtsWorkerContext, "tts"> {
  /** the model; default: the configured one (configuredLlm), none when LLM_URL is unset */
  llm?: LlmClient | null;
}

/** BullMQ settings of the notes worker (tests shorten the lock to see a killed worker sooner). */
export interface NotesWorkerOptions {
  /** jobs at once per process (default LLM_CONCURRENCY: each job makes one call at a time) */
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
  /** how often a running call checks that its task still runs (ms) */
  watchEveryMs?: number;
}

/**
 * The "notes" queue: job "note" `{taskId}` (docs/notes.md), the job table's `note` row. An unreachable or
 * overloaded model is retried (the pieces already answered are kept), a refused request or a rejected
 * answer is not; the final failure settles the task's tokens.
 */
export function startNotesWorker(ctx: NotesWorkerContext, options: NotesWorkerOptions = {}) {
  const domain = { db: ctx.db, clock: ctx.clock ?? systemClock, events: ctx.events, config: ctx.config };
  const llm = ctx.llm === undefined ? configuredLlm(ctx.config) : ctx.llm;
  if (!llm) ctx.log.info({}, "notes: no LLM_URL set, so no text is sent to a language model");
  return startTaskWorker(
    { queues: ctx.queues, log: ctx.log, domain },
    WORKER_JOBS.note,
    ({ taskId }) => runNoteJob(taskId, { domain, llm, watchEveryMs: options.watchEveryMs }),
    { ...options, concurrency: options.concurrency ?? ctx.config.LLM_CONCURRENCY },
  );
}
