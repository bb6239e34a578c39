import { NOTE_JOB, type NoteJob, ZNoteJob } from "@yuelu/contracts";
import { failNoteTask, retryNoteTask, systemClock } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { UnrecoverableError } from "bullmq";
import { configuredLlm, type LlmClient } from "./engines/llm/index.ts";
import { isPermanentNoteFailure, NoteTaskGoneError, noteFailureOf, runNoteJob } from "./jobs/notes.ts";
import { runTaskAttempt } from "./task-attempt.ts";
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
 * The "notes" queue: job "note" `{taskId}` (docs/notes.md). The API enqueues it with attempts 3 and
 * exponential backoff; an unreachable or overloaded model is retried (the pieces already answered are
 * kept), a refused request or a rejected answer is not; the final failure settles the task's tokens.
 */
export function startNotesWorker(ctx: NotesWorkerContext, options: NotesWorkerOptions = {}) {
  const domain = { db: ctx.db, clock: ctx.clock ?? systemClock, events: ctx.events, config: ctx.config };
  const llm = ctx.llm === undefined ? configuredLlm(ctx.config) : ctx.llm;
  if (!llm) ctx.log.info({}, "notes: no LLM_URL set, so no text is sent to a language model");
  const worker = ctx.queues.worker<NoteJob>(
    QueueName.Notes,
    async (job) => {
      if (job.name !== NOTE_JOB) throw new UnrecoverableError(`unknown job name ${job.name}`);
      const parsed = ZNoteJob.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError("invalid note job payload");
      const { taskId } = parsed.data;
      return runTaskAttempt(
        job,
        {
          label: "note",
          ids: { taskId },
          run: () => runNoteJob(taskId, { domain, llm, watchEveryMs: options.watchEveryMs }),
          isGone: (error) => error instanceof NoteTaskGoneError,
          isPermanent: isPermanentNoteFailure,
          failureOf: noteFailureOf,
          fail: (failure) => failNoteTask(domain, taskId, failure),
          retry: () => retryNoteTask(domain, taskId),
        },
        ctx.log,
      );
    },
    {
      concurrency: options.concurrency ?? ctx.config.LLM_CONCURRENCY,
      // a call may take minutes (LLM_TIMEOUT_SECONDS); BullMQ renews the lock meanwhile
      lockDuration: options.lockDuration ?? 120_000,
      stalledInterval: options.stalledInterval ?? 30_000,
      maxStalledCount: options.maxStalledCount ?? 2,
    },
  );
  worker.on("error", (error) => ctx.log.error({ err: error }, "notes worker error"));
  return worker;
}
