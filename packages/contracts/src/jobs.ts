import { z } from "zod";

/**
 * THE table of jobs (docs/architecture.md "Jobs"): every kind of BullMQ job, as producers (the API,
 * the worker's own re-queues) and the worker both see it — its queue, its name, its payload schema,
 * its job id and the options it is added with. The worker's side of a row (handler, failures, stuck
 * rule) is apps/worker/src/jobs/table.ts. The database row is the truth; a job only carries its id.
 *
 * Queue names, job names and job ids are kept by running installs and read by clients: a job queued
 * before an upgrade must still be found and processed after it, so never change them.
 */

/** The queues that carry these jobs: runtime's QueueName, but for housekeeping (a scheduler, no payload). */
export type JobQueue = "transcription" | "tts" | "tts-samples" | "voice" | "notes" | "webhooks" | "clips";

/** How long BullMQ keeps a finished job: true (not at all), a count, or an age (s) and a count. */
type KeepJobs = boolean | number | { age: number; count?: number } | { count: number };

/** The BullMQ options every job of a kind is added with (the part of BullMQ's JobsOptions we use). */
export interface JobOptions {
  attempts: number;
  backoff?: { type: "exponential" | "fixed"; delay: number };
  removeOnComplete: KeepJobs;
  removeOnFail: KeepJobs;
}

/**
 * One kind of job. `jobId` makes adding the same work again a no-op while its job is kept; `version`
 * tells one run of the same payload from the next where the payload alone cannot (a library voice's
 * sample parameters, the sample file a voice is trained on).
 */
export interface JobDefinition<P = unknown> {
  queue: JobQueue;
  name: string;
  payload: z.ZodType<P>;
  jobId(payload: P, version?: string): string;
  options: JobOptions;
}

const zId = z.number().int().positive();

/** A task's job: retried with backoff, the finished ones kept a while for the operator. */
const taskJobOptions = (attempts: number, delay: number): JobOptions => ({
  attempts,
  backoff: { type: "exponential", delay },
  removeOnComplete: 1000,
  removeOnFail: 5000,
});

export const ZTranscriptionJob = z.object({ taskId: zId });
export type TranscriptionJob = z.infer<typeof ZTranscriptionJob>;

export const ZTtsJob = z.object({ taskId: zId });
export type TtsJob = z.infer<typeof ZTtsJob>;

export const ZVoiceSampleJob = z.object({ promptId: zId });
export type VoiceSampleJob = z.infer<typeof ZVoiceSampleJob>;

export const ZVoiceJob = z.object({ kind: z.enum(["voice", "work"]), id: zId });
export type VoiceJob = z.infer<typeof ZVoiceJob>;

export const ZNoteJob = z.object({ taskId: zId });
export type NoteJob = z.infer<typeof ZNoteJob>;

export const ZWebhookJob = z.object({ deliveryId: zId, attempt: zId });
export type WebhookJob = z.infer<typeof ZWebhookJob>;

export const ZClipJob = z.object({ clipId: zId });
export type ClipJob = z.infer<typeof ZClipJob>;

/** The sample file's name (a uuid) tells one training of a voice from the next. */
function sampleName(sampleKey = ""): string {
  return (
    sampleKey
      .split("/")
      .pop()
      ?.replace(/\.[^.]*$/, "") ?? ""
  );
}

export const JOBS = {
  /** A transcription task (docs/records-api.md "Transcription"), one job per task. */
  transcription: {
    queue: "transcription",
    name: "transcribe",
    payload: ZTranscriptionJob,
    jobId: ({ taskId }) => `task-${taskId}`,
    options: taskJobOptions(3, 5000),
  } satisfies JobDefinition<TranscriptionJob>,

  /** A text-to-speech task (docs/tts.md), one job per task. */
  tts: {
    queue: "tts",
    name: "synthesize",
    payload: ZTtsJob,
    jobId: ({ taskId }) => `tts-${taskId}`,
    options: taskJobOptions(3, 2000),
  } satisfies JobDefinition<TtsJob>,

  /**
   * A library voice's try_listen sample, once per version of its parameters; one attempt, whose
   * failedReason says why (try_listen reads it back). Its own queue: a sample never waits behind long texts.
   */
  ttsSample: {
    queue: "tts-samples",
    name: "voice-sample",
    payload: ZVoiceSampleJob,
    jobId: ({ promptId }, version) => `sample-${promptId}-${version}`,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 3600, count: 200 } },
  } satisfies JobDefinition<VoiceSampleJob>,

  /**
   * A trained voice (UserVoice) or a sung/converted song (VoiceWork) (docs/voice.md). A voice trained
   * again is a new job: its id carries the sample it analyses (`version`: the sample's key).
   */
  voice: {
    queue: "voice",
    name: "voice",
    payload: ZVoiceJob,
    jobId: ({ kind, id }, sampleKey) => (kind === "work" ? `work-${id}` : `myvoice-${id}-${sampleName(sampleKey)}`),
    options: taskJobOptions(2, 5000),
  } satisfies JobDefinition<VoiceJob>,

  /** An AI note made with the configured LLM (docs/notes.md), one job per task. */
  note: {
    queue: "notes",
    name: "note",
    payload: ZNoteJob,
    jobId: ({ taskId }) => `note-${taskId}`,
    options: taskJobOptions(3, 5000),
  } satisfies JobDefinition<NoteJob>,

  /**
   * One POST of a WebhookDelivery (the outbox row), one job per attempt: adding it again while it
   * waits is a no-op, and a job whose attempt is no longer the delivery's next one does nothing. Its
   * retries are the delivery's own (a new job, delayed), so BullMQ tries each job once and keeps none.
   */
  webhook: {
    queue: "webhooks",
    name: "deliver-webhook",
    payload: ZWebhookJob,
    jobId: ({ deliveryId, attempt }) => `webhook-${deliveryId}-${attempt}`,
    options: { attempts: 1, removeOnComplete: true, removeOnFail: true },
  } satisfies JobDefinition<WebhookJob>,

  /**
   * A clip cut from a record (docs/clips.md), one job per clip: the record's audio (or video) from the
   * clip's start to its end. Its own queue: a clip never waits behind hours of transcription.
   */
  clip: {
    queue: "clips",
    name: "cut-clip",
    payload: ZClipJob,
    jobId: ({ clipId }) => `clip-${clipId}`,
    options: taskJobOptions(3, 2000),
  } satisfies JobDefinition<ClipJob>,
} as const;

export type JobKind = keyof typeof JOBS;
/** The payload of a kind of job, as its schema parses it. */
export type JobPayload<K extends JobKind> = z.infer<(typeof JOBS)[K]["payload"]>;

// The names tests and scripts that add jobs by hand use; each is read from its row above.
export const TRANSCRIBE_JOB = JOBS.transcription.name;
export const transcriptionJobId = (taskId: number) => JOBS.transcription.jobId({ taskId });
export const SYNTHESIZE_JOB = JOBS.tts.name;
export const ttsJobId = (taskId: number) => JOBS.tts.jobId({ taskId });
export const NOTE_JOB = JOBS.note.name;
export const noteJobId = (taskId: number) => JOBS.note.jobId({ taskId });
