import { JOBS, type JobDefinition, type JobKind, type JobPayload, ttsFailureReason } from "@yuelu/contracts";
import {
  type DomainContext,
  failClip,
  failNoteTask,
  failStuckClips,
  failStuckNoteTasks,
  failStuckTranscriptions,
  failStuckTtsTasks,
  failStuckVoiceTasks,
  failTask,
  failTtsTask,
  failVoiceTask,
  type JobLookup,
  retryClip,
  retryNoteTask,
  retryTask,
  retryTtsTask,
  retryVoiceTask,
  VOICE_FAILURE_CODE,
} from "@yuelu/domain";
import type { QueueBackend } from "@yuelu/runtime";
import { AsrEngineUnavailableError } from "../engines/asr/types.ts";
import { TtsEngineUnavailableError } from "../engines/tts/types.ts";
import { WrongLanguageError } from "../speech/language-check.ts";
import { requeueDueDeliveries } from "../webhooks/queue.ts";
import { ClipGoneError, clipFailureOf, PermanentClipError } from "./cut-clip.ts";
import { isPermanentNoteFailure, NoteTaskGoneError, noteFailureOf } from "./notes.ts";
import { isPermanentSynthesisFailure, synthesisFailureOf, TtsTaskGoneError } from "./synthesize-speech.ts";
import { failureOf, PermanentTranscriptionError, TaskGoneError } from "./transcribe.ts";
import { PermanentVoiceError, VoiceTaskGoneError } from "./voice.ts";

/**
 * The worker's side of the job table (contracts/jobs.ts JOBS holds what producers see): for each kind,
 * how a failed attempt is settled (its failure catalogue), the BullMQ worker's lock settings, the
 * name its attempts are logged and measured under, and the stuck rule housekeeping runs. The handler
 * itself is given when the kind's worker starts (startTaskWorker), since it needs that process's
 * engines. Adding a job kind is adding a row here and in JOBS (docs/architecture.md "Jobs").
 */

/** What a task's failure and retry write with: the domain's rules. */
export type TaskDomain = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/**
 * A task's failure catalogue (task-attempt.ts runs it): a task that is gone ends the job quietly; a
 * failure another attempt cannot fix, or the last attempt's, fails the task (which refunds it); an
 * earlier one puts it back in the queue for BullMQ's retry.
 */
export interface TaskFailures<P, F extends { reason: string }> {
  isGone(error: unknown): boolean;
  isPermanent(error: unknown): boolean;
  failureOf(error: unknown): F;
  fail(domain: TaskDomain, payload: P, failure: F): Promise<unknown>;
  retry(domain: TaskDomain, payload: P): Promise<unknown>;
}

/** How a failed attempt is settled. */
export type Settlement<P> =
  /** a task's job: retried with backoff, then failed and refunded */
  // biome-ignore lint/suspicious/noExplicitAny: each row's failure type is its own (taskSettlement checks it)
  | { kind: "task"; failures: TaskFailures<P, any> }
  /** one attempt; `reasonOf` is the job's failedReason, which the producer reads back */
  | { kind: "once"; reasonOf(error: unknown): string }
  /** the handler keeps its own state and retries (webhook delivery rows): a failure is only logged */
  | { kind: "own" };

/** The BullMQ worker's defaults for a kind (a worker's options may override them). */
export interface WorkerDefaults {
  /** a killed worker's job is taken back this long after its last lock renewal */
  lockDuration?: number;
  stalledInterval?: number;
  /** how often a job may be taken back from a dead worker before it fails */
  maxStalledCount?: number;
}

/** Housekeeping's sweep of a kind: gives up (or queues again) what nobody will run; returns how many. */
export interface StuckRule<Report extends string = string> {
  /** the field of housekeeping's result that counts them */
  report: Report;
  /** without `queues`, jobs are not looked at (only the time limits apply) */
  sweep(domain: DomainContext, queues?: Pick<QueueBackend, "queue">): Promise<number>;
}

export interface WorkerJob<P, Report extends string = string> {
  def: JobDefinition<P>;
  /** names its attempts in the log ("transcription attempt failed") */
  label: string;
  /** `type` of yuelu_job_duration_seconds (docs/metrics.md) */
  metric: string;
  settle: Settlement<P>;
  worker: WorkerDefaults;
  stuck?: StuckRule<Report>;
}

/** A task kind's stuck rule: its domain sweep, judging jobs on the kind's own queue when housekeeping has the queues. */
function taskSweep<Report extends string>(
  def: Pick<JobDefinition, "queue">,
  report: Report,
  sweep: (domain: DomainContext, options: { queue?: JobLookup }) => Promise<number>,
): StuckRule<Report> {
  return { report, sweep: (domain, queues) => sweep(domain, { queue: queues?.queue(def.queue) }) };
}

/** A task kind's settlement: its failure type read from `failureOf`, its payload from its definition. */
function taskSettlement<P, F extends { reason: string }>(
  _def: JobDefinition<P>,
  failures: TaskFailures<P, F>,
): Settlement<P> {
  return { kind: "task", failures };
}

/** The lock every task kind's worker holds: renewed while it runs; a dead worker's job is taken back twice. */
const TASK_LOCKS = { lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 2 };

/** A voice job's failure: its own reason when it says one, else "failed". */
function voiceFailureOf(error: unknown): { reason: string; detail: string } {
  if (error instanceof PermanentVoiceError) return { reason: error.reason, detail: error.message };
  if (error instanceof TtsEngineUnavailableError) return { reason: "engine-unavailable", detail: error.message };
  return { reason: "failed", detail: (error as Error)?.message ?? String(error) };
}

/**
 * The failedReason of a voice-sample job: a ttsFailureReason (e.g. "engine-unavailable/festival-missing"),
 * which try_listen reads back and words in the user's language.
 */
export function sampleFailureReason(error: unknown): string {
  if (error instanceof TtsEngineUnavailableError) return ttsFailureReason("engine-unavailable", error.problem);
  return synthesisFailureOf(error).reason;
}

export const WORKER_JOBS = {
  transcription: {
    def: JOBS.transcription,
    label: "transcription",
    metric: "transcription",
    settle: taskSettlement(JOBS.transcription, {
      isGone: (error) => error instanceof TaskGoneError,
      // another attempt cannot change what was said, nor bring a missing engine or file
      isPermanent: (error) =>
        error instanceof AsrEngineUnavailableError ||
        error instanceof PermanentTranscriptionError ||
        error instanceof WrongLanguageError,
      failureOf,
      fail: (domain, { taskId }, failure) => failTask(domain, taskId, failure),
      retry: (domain, { taskId }) => retryTask(domain, taskId),
    }),
    worker: TASK_LOCKS,
    // transcription tasks stuck in queue/transcribing, failed and refunded
    stuck: taskSweep(JOBS.transcription, "failedStuckTasks", failStuckTranscriptions),
  },
  tts: {
    def: JOBS.tts,
    label: "synthesis",
    metric: "tts",
    settle: taskSettlement(JOBS.tts, {
      isGone: (error) => error instanceof TtsTaskGoneError,
      isPermanent: isPermanentSynthesisFailure,
      failureOf: synthesisFailureOf,
      fail: (domain, { taskId }, failure) => failTtsTask(domain, taskId, failure),
      retry: (domain, { taskId }) => retryTtsTask(domain, taskId),
    }),
    worker: TASK_LOCKS,
    // text-to-speech tasks stuck in queue/running, failed and refunded
    stuck: taskSweep(JOBS.tts, "failedStuckTtsTasks", failStuckTtsTasks),
  },
  ttsSample: {
    def: JOBS.ttsSample,
    label: "voice-sample",
    metric: "tts-sample",
    settle: { kind: "once", reasonOf: sampleFailureReason },
    worker: TASK_LOCKS,
  },
  voice: {
    def: JOBS.voice,
    label: "voice",
    metric: "voice",
    settle: taskSettlement(JOBS.voice, {
      isGone: (error) => error instanceof VoiceTaskGoneError,
      isPermanent: (error) => error instanceof PermanentVoiceError || error instanceof TtsEngineUnavailableError,
      failureOf: voiceFailureOf,
      // 40003 for a voice, 40004 for a work; its unit of the day is given back
      fail: (domain, { kind, id }, failure) =>
        failVoiceTask(domain, kind, id, { code: VOICE_FAILURE_CODE[kind], ...failure }),
      retry: (domain, { kind, id }) => retryVoiceTask(domain, kind, id),
    }),
    // a song's conversion holds the CPU for minutes
    worker: { ...TASK_LOCKS, lockDuration: 120_000 },
    // trained voices and voice works stuck in queue/running, failed and refunded
    stuck: taskSweep(JOBS.voice, "failedStuckVoiceTasks", failStuckVoiceTasks),
  },
  note: {
    def: JOBS.note,
    label: "note",
    metric: "note",
    settle: taskSettlement(JOBS.note, {
      isGone: (error) => error instanceof NoteTaskGoneError,
      isPermanent: isPermanentNoteFailure,
      failureOf: noteFailureOf,
      fail: (domain, { taskId }, failure) => failNoteTask(domain, taskId, failure),
      retry: (domain, { taskId }) => retryNoteTask(domain, taskId),
    }),
    // a call may take minutes (LLM_TIMEOUT_SECONDS); BullMQ renews the lock meanwhile
    worker: { ...TASK_LOCKS, lockDuration: 120_000 },
    // notes tasks stuck in queue/running (or whose job is gone), failed and their tokens settled
    stuck: taskSweep(JOBS.note, "failedStuckNoteTasks", failStuckNoteTasks),
  },
  clip: {
    def: JOBS.clip,
    label: "clip",
    metric: "clip",
    settle: taskSettlement(JOBS.clip, {
      isGone: (error) => error instanceof ClipGoneError,
      // a missing or unreadable source stays so
      isPermanent: (error) => error instanceof PermanentClipError,
      failureOf: clipFailureOf,
      // nothing was charged: nothing to refund
      fail: (domain, { clipId }, failure) => failClip(domain, clipId, failure),
      retry: (domain, { clipId }) => retryClip(domain, clipId),
    }),
    worker: TASK_LOCKS,
    // clips stuck in queue/cutting (or whose job is gone), failed
    stuck: taskSweep(JOBS.clip, "failedStuckClips", failStuckClips),
  },
  webhook: {
    def: JOBS.webhook,
    label: "webhook",
    metric: "webhook",
    settle: { kind: "own" },
    // short HTTP calls: BullMQ's own lock defaults
    worker: {},
    // webhook deliveries that were due with no job (lost with a worker or a notice), queued again
    stuck: {
      report: "requeuedWebhooks",
      sweep: async (domain, queues) => (queues ? requeueDueDeliveries(domain, queues) : 0),
    },
  },
} as const satisfies { [K in JobKind]: WorkerJob<JobPayload<K>> };

/** Every row, for what runs over all of them (housekeeping, the boot guard, metrics). */
export const WORKER_JOB_ROWS: readonly WorkerJob<unknown>[] = Object.values(WORKER_JOBS) as WorkerJob<unknown>[];

/** The housekeeping fields the rows' stuck rules report under. */
export type StuckReport = {
  [K in JobKind]: (typeof WORKER_JOBS)[K] extends { stuck: StuckRule<infer R> } ? R : never;
}[JobKind];
