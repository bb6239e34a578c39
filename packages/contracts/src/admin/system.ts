// Contracts of /voice_yuelu/admin (system): see docs/admin.md "System".
import { z } from "zod";
import { ZLlmStatus } from "../notes.ts";
import { adminPageOf, adminPageQuery } from "./common.ts";
import { ZAdminDay } from "./orders.ts";

const ZIso = z.string();
const ZIsoOrNull = z.string().nullable();

// ── engines, models and tools ──

/** A model source that did not deliver a file, and why (docs/chinese-speech.md "Where the models come from"). */
export const ZAdminSourceFailure = z.object({
  /** huggingface, hf-mirror, modelscope, or a host */
  source: z.string(),
  file: z.string(),
  /** unreachable | http | checksum | interrupted | no-checksum | not-held */
  reason: z.string(),
  detail: z.string(),
});
export type AdminSourceFailure = z.infer<typeof ZAdminSourceFailure>;

/** One engine a worker reported in its heartbeat, with what the operator must do when it is not available. */
export const ZAdminEngine = z.object({
  /** 'asr' speech recognition, 'tts' text to speech */
  kind: z.enum(["asr", "tts"]),
  language: z.string(),
  engine: z.string(),
  available: z.boolean(),
  /** an engine problem key ('model-missing', 'festival-missing'…) when not available */
  problem: z.string().nullable(),
  /** percent of the model downloaded, while the problem is 'model-downloading' */
  progress: z.number().nullable(),
  /** what to install or set (a command, an apt package, a variable) */
  fix: z.string().nullable(),
  /** the model source the worker downloaded this engine's model from, or is downloading it from */
  modelSource: z.string().nullable(),
  /** the model sources that failed (while the download fails, or skipped before one worked), and why */
  sourceFailures: z.array(ZAdminSourceFailure),
});
export type AdminEngine = z.infer<typeof ZAdminEngine>;

/** An outside program (ffmpeg, ffprobe, espeak-ng, festival) as a process found it. */
export const ZAdminTool = z.object({
  name: z.string(),
  available: z.boolean(),
  /** 'env' (its variable), 'system' (PATH) or 'bundled' (an npm package) */
  source: z.string().nullable(),
  path: z.string().nullable(),
  version: z.string().nullable(),
  /** what to install or set when it is missing */
  install: z.string().nullable(),
});
export type AdminTool = z.infer<typeof ZAdminTool>;

export const ZAdminWorker = z.object({
  workerId: z.string(),
  hostname: z.string(),
  pid: z.number().int(),
  startedAt: ZIso,
  seenAt: ZIso,
  engines: z.array(ZAdminEngine),
  tools: z.array(ZAdminTool),
});
export type AdminWorker = z.infer<typeof ZAdminWorker>;

/** Something missing somewhere and what installs it, once per thing. */
export const ZAdminMissing = z.object({
  /** e.g. 'asr zh whisper', 'tts en festival', 'tool festival', 'worker' */
  what: z.string(),
  problem: z.string(),
  install: z.string(),
});
export type AdminMissing = z.infer<typeof ZAdminMissing>;

/** GET /admin/system/engines: the live workers (their heartbeats), the API's own tools, and what is missing. */
export const ZAdminEngines = z.object({
  workers: z.array(ZAdminWorker),
  /** the programs this API process found (it probes uploads itself) */
  apiTools: z.array(ZAdminTool),
  missing: z.array(ZAdminMissing),
  /** how speech models are listed and fetched (apps/worker/src/models/cli.ts) */
  models: z.object({ list: z.string(), fetch: z.string() }),
  /** the language model of AI notes (LLM_URL), as this API process last probed it (docs/notes.md) */
  llm: ZLlmStatus,
});
export type AdminEngines = z.infer<typeof ZAdminEngines>;

// ── queues and failed jobs ──

export const ZAdminQueue = z.object({
  name: z.string(),
  waiting: z.number().int(),
  active: z.number().int(),
  delayed: z.number().int(),
  failed: z.number().int(),
  completed: z.number().int(),
});
export type AdminQueue = z.infer<typeof ZAdminQueue>;

/** GET /admin/system/queues. `backend`: 'redis' or 'postgres' (no Redis configured). */
export const ZAdminQueues = z.object({ backend: z.string(), queues: z.array(ZAdminQueue) });
export type AdminQueues = z.infer<typeof ZAdminQueues>;

/** The queue names: housekeeping, transcription, tts, tts-samples, voice. */
export const ADMIN_QUEUE_NAMES = ["housekeeping", "transcription", "tts", "tts-samples", "voice"] as const;
export const ZAdminQueueName = z.enum(ADMIN_QUEUE_NAMES);

/** GET /admin/system/jobs/failed: by failure time (`order` desc: newest first), of one queue or all. */
export const ZAdminFailedJobQuery = adminPageQuery(["finishedOn"] as const).extend({
  queue: ZAdminQueueName.optional(),
});
export type AdminFailedJobQuery = z.infer<typeof ZAdminFailedJobQuery>;

export const ZAdminFailedJob = z.object({
  queue: z.string(),
  id: z.string(),
  name: z.string(),
  failedReason: z.string(),
  /** tries made, and allowed */
  attemptsMade: z.number().int(),
  attempts: z.number().int(),
  /** the job's payload (ids only: the database row is the truth) */
  data: z.unknown(),
  createdAt: ZIsoOrNull,
  processedAt: ZIsoOrNull,
  failedAt: ZIsoOrNull,
});
export type AdminFailedJob = z.infer<typeof ZAdminFailedJob>;
export const ZAdminFailedJobPage = adminPageOf(ZAdminFailedJob);
export type AdminFailedJobPage = z.infer<typeof ZAdminFailedJobPage>;

/** POST /admin/system/jobs/:queue/:jobId/retry and .../remove. */
export const ZAdminJobParams = z.object({ queue: ZAdminQueueName, jobId: z.string().trim().min(1).max(200) });
export type AdminJobParams = z.infer<typeof ZAdminJobParams>;

export const ZAdminJobAction = z.object({
  queue: z.string(),
  id: z.string(),
  /** 'retried' | 'removed' */
  done: z.enum(["retried", "removed"]),
});
export type AdminJobAction = z.infer<typeof ZAdminJobAction>;

/** POST /admin/system/jobs/retry-failed: every failed job (of one queue, or all) goes back to waiting. */
export const ZAdminRetryFailedBody = z.object({ queue: ZAdminQueueName.optional() });
export type AdminRetryFailedBody = z.infer<typeof ZAdminRetryFailedBody>;
export const ZAdminRetryFailedResult = z.object({ retried: z.number().int() });
export type AdminRetryFailedResult = z.infer<typeof ZAdminRetryFailedResult>;

// ── storage ──

/** GET /admin/system/storage: users by the bytes they store, largest first. */
export const ZAdminStorageQuery = adminPageQuery(["bytes", "recordBytes", "records"] as const);
export type AdminStorageQuery = z.infer<typeof ZAdminStorageQuery>;

export const ZAdminStorageRow = z.object({
  userId: z.number().int(),
  phone: z.string().nullable(),
  nickName: z.string(),
  /** records not purged (recycle bin included) */
  records: z.number().int(),
  recordBytes: z.number().int(),
  /** text-to-speech works, sung and converted songs */
  workBytes: z.number().int(),
  bytes: z.number().int(),
});
export type AdminStorageRow = z.infer<typeof ZAdminStorageRow>;
export const ZAdminStoragePage = adminPageOf(ZAdminStorageRow).extend({
  /** every user's bytes together */
  totalBytes: z.number().int(),
});
export type AdminStoragePage = z.infer<typeof ZAdminStoragePage>;

// ── version ──

export const ZAdminVersion = z.object({
  version: z.string(),
  node: z.string(),
  uptimeSeconds: z.number().int(),
  /** 'redis' | 'postgres' */
  queueBackend: z.string(),
  /** 'local' | 's3' */
  fileStore: z.string(),
  /** 'mock-alipay' | 'alipay' | 'none' */
  paymentProvider: z.string(),
  businessTimeZone: z.string(),
});
export type AdminVersion = z.infer<typeof ZAdminVersion>;

// ── daily figures ──

/** GET /admin/system/figures: days `from`–`to` (both included, at most 366; default the last 30) in BUSINESS_TZ. */
export const ZAdminFiguresQuery = z.object({ from: ZAdminDay.optional(), to: ZAdminDay.optional() });
export type AdminFiguresQuery = z.infer<typeof ZAdminFiguresQuery>;

export const ZAdminDayFigures = z.object({
  day: z.string(),
  signUps: z.number().int(),
  /** audio minutes of transcriptions completed that day (rounded down) */
  minutesTranscribed: z.number().int(),
  /** paid orders' amounts by their payment day */
  paidFen: z.number().int(),
  /** refunded orders' amounts by their refund day */
  refundedFen: z.number().int(),
  /** paidFen − refundedFen */
  revenueFen: z.number().int(),
  /** the bean ledger: sum of the positive amounts, and of the negative ones (as a positive number) */
  beansIssued: z.number().int(),
  beansSpent: z.number().int(),
});
export type AdminDayFigures = z.infer<typeof ZAdminDayFigures>;

export const ZAdminFigures = z.object({
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  days: z.array(ZAdminDayFigures),
  totals: ZAdminDayFigures.omit({ day: true }),
});
export type AdminFigures = z.infer<typeof ZAdminFigures>;
