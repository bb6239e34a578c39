import {
  type DictationParam,
  FileStatus,
  MAX_HOT_WORDS,
  MAX_TRANSCRIBE_SECONDS,
  StatusCode,
  TRANSCRIBE_JOB,
  type TranscriptionJob,
  transcriptionJobId,
  ZDictationParamInput,
} from "@yuelu/contracts";
import { ChargeRefused, chargeTranscription, type Db, refundTranscriptionTask } from "@yuelu/db";
import { type Config, type QueueBackend, QueueName } from "@yuelu/runtime";
import type { JobsOptions } from "bullmq";
import { AppError } from "../../lib/app-error.ts";
import { businessDay } from "../../lib/time.ts";
import { isMemberAt } from "../user/storage.ts";

/** Transcription requests (docs/records-api.md "Transcription"): charging, task rows and jobs. */

export const TRANSCRIBE_JOB_OPTIONS = {
  attempts: 3,
  backoff: { type: "exponential", delay: 5000 },
  removeOnComplete: 1000,
  removeOnFail: 5000,
} as const satisfies JobsOptions;

/** Interactive transactions queue behind a record's row lock under parallel calls: allow for it. */
const TX_OPTIONS = { maxWait: 15_000, timeout: 30_000 };

/** A refusal code of one file (the transaction rolled back, nothing was charged). */
type Refusal = 30001 | 50001 | 50002 | 20001 | 99999;

export interface FileOutcome {
  fileId: number;
  taskId: number | null;
  fileStatus: number;
  /** 1 queued (new or existing task), else the refusal */
  code: 1 | Refusal;
  /** a job must be (re)added for taskId after the commit */
  enqueue: boolean;
  /** this call created and charged the task */
  created: boolean;
}

/**
 * dictationParam: a JSON string or an object (validated with ZDictationParamInput); absent → defaults.
 * Malformed JSON or bad fields → 10002 naming dictationParam(.field).
 */
export function parseDictationParam(raw: unknown): DictationParam {
  let value: unknown = raw ?? {};
  if (typeof value === "string") {
    const text = value.trim();
    if (text === "") {
      value = {};
    } else {
      try {
        value = JSON.parse(text);
      } catch {
        throw AppError.invalid("dictationParam", "invalid JSON");
      }
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw AppError.invalid("dictationParam", "must be a JSON object");
  }
  const parsed = ZDictationParamInput.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = ["dictationParam", ...(issue?.path ?? []).map(String)].join(".");
    throw AppError.invalid(field, issue?.message);
  }
  return parsed.data;
}

class RefusedInTx extends Error {
  constructor(
    readonly code: Refusal,
    readonly fileStatus: number,
    readonly taskId: number | null,
  ) {
    super(`refused ${code}`);
  }
}

interface LockedRecord {
  userId: number;
  timeLen: number;
  fileStatus: number;
  deletedAt: Date | null;
}

export interface TranscribeContext {
  db: Db;
  config: Config;
  userId: number;
  param: DictationParam;
  /** daily cap in seconds for this user now (members get the larger one) */
  dailyLimit: number;
  now: Date;
}

/** The daily cap that applies to the user at `now`. */
export async function dailyLimitOf(db: Db, config: Config, userId: number, now: Date): Promise<number> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { memberEffectiveTime: true } });
  return isMemberAt(user?.memberEffectiveTime ?? null, now)
    ? config.DAILY_QUOTA_SECONDS_MEMBER
    : config.DAILY_QUOTA_SECONDS;
}

/**
 * One file, one transaction: the record row is locked (FOR UPDATE), so parallel calls for the same
 * file take turns and the later ones see the task the first one created (answered, not charged
 * again). Otherwise: > 3 h → 50001; a task row (status 3); chargeTranscription against the business
 * day's quota and the time cards (50002 / 20001 roll everything back); the record → status 3,
 * progress 0. The job is added by the caller after the commit.
 */
export async function transcribeFile(ctx: TranscribeContext, fileId: number): Promise<FileOutcome> {
  const { db, config, userId, param, dailyLimit, now } = ctx;
  try {
    return await db.$transaction(async (tx): Promise<FileOutcome> => {
      const rows = await tx.$queryRaw<LockedRecord[]>`
        SELECT "userId", "timeLen", "fileStatus", "deletedAt" FROM audio_records
        WHERE "fileId" = ${fileId}::int FOR UPDATE`;
      const record = rows[0];
      if (!record || record.userId !== userId || record.deletedAt !== null) {
        throw new RefusedInTx(StatusCode.RecordNotFound, FileStatus.NotFound, null);
      }
      if (record.fileStatus === FileStatus.InQueue || record.fileStatus === FileStatus.Transcribing) {
        const current = await tx.transcriptionTask.findFirst({
          where: { fileId, status: { in: [FileStatus.InQueue, FileStatus.Transcribing] } },
          orderBy: { id: "desc" },
          select: { id: true, status: true },
        });
        if (current) {
          return {
            fileId,
            taskId: current.id,
            fileStatus: record.fileStatus,
            code: 1,
            enqueue: current.status === FileStatus.InQueue,
            created: false,
          };
        }
        // The record claims a live task that does not exist: transcribe it afresh below.
      }
      const latest = await tx.transcriptionTask.findFirst({
        where: { fileId },
        orderBy: { id: "desc" },
        select: { id: true },
      });
      if (record.timeLen > MAX_TRANSCRIBE_SECONDS) {
        throw new RefusedInTx(50001, record.fileStatus, latest?.id ?? null);
      }
      const task = await tx.transcriptionTask.create({
        data: {
          fileId,
          userId,
          status: FileStatus.InQueue,
          progress: 0,
          language: param.language,
          speakerCount: param.speakerCount,
        },
        select: { id: true },
      });
      try {
        await chargeTranscription(tx, {
          userId,
          taskId: task.id,
          seconds: Math.max(0, Math.ceil(record.timeLen)),
          day: businessDay(now, config.BUSINESS_TZ),
          dailyLimit,
          now,
        });
      } catch (error) {
        if (error instanceof ChargeRefused) throw new RefusedInTx(error.code, record.fileStatus, latest?.id ?? null);
        throw error;
      }
      await tx.audioRecord.update({
        where: { fileId },
        data: { fileStatus: FileStatus.InQueue, progress: 0 },
      });
      return { fileId, taskId: task.id, fileStatus: FileStatus.InQueue, code: 1, enqueue: true, created: true };
    }, TX_OPTIONS);
  } catch (error) {
    if (error instanceof RefusedInTx) {
      return {
        fileId,
        taskId: error.taskId,
        fileStatus: error.fileStatus,
        code: error.code,
        enqueue: false,
        created: false,
      };
    }
    throw error;
  }
}

/** Adds the task's job; the fixed jobId makes a repeated add a no-op while the job is kept. */
export async function enqueueTranscription(queues: QueueBackend, taskId: number): Promise<void> {
  const data: TranscriptionJob = { taskId };
  await queues
    .queue<TranscriptionJob>(QueueName.Transcription)
    .add(TRANSCRIBE_JOB, data, { jobId: transcriptionJobId(taskId), ...TRANSCRIBE_JOB_OPTIONS });
}

/**
 * A freshly charged task whose job could not be added: it fails at once (errorCode 99999), the
 * record goes to -1 and the charge is refunded, so nothing is left charged and waiting forever.
 */
export async function failUnqueuedTask(db: Db, taskId: number, fileId: number, now = new Date()): Promise<void> {
  const failed = await db.transcriptionTask.updateMany({
    where: { id: taskId, status: FileStatus.InQueue },
    data: {
      status: FileStatus.Failed,
      errorCode: StatusCode.SystemError,
      errorMessage: "the transcription could not be queued",
      finishedAt: now,
    },
  });
  if (failed.count === 1) {
    await db.audioRecord.updateMany({
      where: { fileId, fileStatus: FileStatus.InQueue },
      data: { fileStatus: FileStatus.Failed, progress: 0 },
    });
  }
  await refundTranscriptionTask(db, taskId);
}

/**
 * dictationParam.hotWords join the user's saved hot words (the worker reads the hot_words table when
 * it runs the task: tasks have no hot-word column). Over 200 in all → 10002 naming dictationParam.hotWords.
 */
export async function mergeHotWords(db: Db, userId: number, words: string[]): Promise<void> {
  if (words.length === 0) return;
  await db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('hot_words'), ${userId}::int)`;
    const saved = await tx.hotWord.findMany({ where: { userId }, select: { word: true } });
    const have = new Set(saved.map((w) => w.word));
    const fresh = words.filter((w) => !have.has(w));
    if (fresh.length === 0) return;
    if (have.size + fresh.length > MAX_HOT_WORDS) {
      throw AppError.invalid("dictationParam.hotWords", `at most ${MAX_HOT_WORDS} saved hot words`);
    }
    await tx.hotWord.createMany({ data: fresh.map((word) => ({ userId, word })), skipDuplicates: true });
  }, TX_OPTIONS);
}

export interface ProgressRow {
  fileId: number;
  fileStatus: number;
  progress: number;
  taskId: number | null;
  errorCode?: number;
  errorMsg?: string;
}

/** Status and progress of each file, in the order asked; unknown or foreign files answer -10. */
export async function progressOf(
  db: Db,
  userId: number,
  fileIds: number[],
  messageOf: (code: number) => string,
): Promise<ProgressRow[]> {
  const [records, tasks] = await Promise.all([
    db.audioRecord.findMany({
      where: { fileId: { in: fileIds }, userId, deletedAt: null },
      select: { fileId: true, fileStatus: true, progress: true },
    }),
    db.transcriptionTask.findMany({
      where: { fileId: { in: fileIds }, userId },
      orderBy: { id: "desc" },
      distinct: ["fileId"],
      select: { id: true, fileId: true, status: true, errorCode: true, errorMessage: true },
    }),
  ]);
  return fileIds.map((fileId): ProgressRow => {
    const record = records.find((r) => r.fileId === fileId);
    if (!record) return { fileId, fileStatus: FileStatus.NotFound, progress: 0, taskId: null };
    const task = tasks.find((t) => t.fileId === fileId);
    const row: ProgressRow = {
      fileId,
      fileStatus: record.fileStatus,
      progress: record.fileStatus === FileStatus.Complete ? 100 : Math.max(0, Math.min(100, record.progress)),
      taskId: task?.id ?? null,
    };
    if (record.fileStatus === FileStatus.Failed && task?.errorCode) {
      row.errorCode = task.errorCode;
      row.errorMsg = task.errorMessage || messageOf(task.errorCode);
    }
    return row;
  });
}
