import { type DictationParam, FileStatus, failureReason, MAX_HOT_WORDS, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transcriptionRefusal } from "../records/refusal.ts";
import { businessDay } from "../time.ts";
import { TX_OPTIONS } from "../transaction.ts";
import { dailyLimitOf } from "../wallet/quota.ts";
import { ChargeRefused, chargeTranscription } from "../wallet/transcription-charge.ts";
import { failTask } from "./lifecycle.ts";
import { OPEN_TASK_STATES, queueTask, TaskState } from "./task-state.ts";

/** Transcription requests (docs/records-api.md "Transcription"): charging, task rows, queueing. */

/** A refusal code of one file (its transaction rolled back: nothing was charged). */
type Refusal = 30001 | 50001 | 50002 | 20001 | 99999;

export interface FileOutcome {
  fileId: number;
  taskId: number | null;
  fileStatus: number;
  /** 1 queued (new or existing task), else the refusal */
  code: 1 | Refusal;
}

/** Adds the task's job to the queue (the API's BullMQ producer); the same task id twice is a no-op. */
export type EnqueueTranscription = (taskId: number) => Promise<void>;

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
  liveCreditSeconds: number;
  fileStatus: number;
  deletedAt: Date | null;
}

/**
 * Requests the transcription of each file in turn, each in its own transaction, and queues each new
 * task after its commit. `dictationParam.hotWords` join the user's saved hot words first. A task
 * whose job cannot be queued fails at once and is refunded (code 99999).
 */
export async function requestTranscriptions(
  ctx: DomainContext,
  userId: number,
  fileIds: number[],
  param: DictationParam,
  enqueue: EnqueueTranscription,
): Promise<FileOutcome[]> {
  if (param.hotWords?.length) await mergeHotWords(ctx, userId, param.hotWords);
  const dailyLimit = await dailyLimitOf(ctx, userId);
  const outcomes: FileOutcome[] = [];
  for (const fileId of fileIds) {
    const { outcome, enqueue: mustEnqueue, created } = await requestOne(ctx, userId, fileId, param, dailyLimit);
    if (mustEnqueue && outcome.taskId !== null) {
      try {
        await enqueue(outcome.taskId);
      } catch (error) {
        if (!created) throw error;
        await failTask(ctx, outcome.taskId, {
          code: StatusCode.SystemError,
          reason: failureReason("not-queued"),
          detail: `could not add the job: ${(error as Error).message}`,
        });
        outcomes.push({ ...outcome, code: StatusCode.SystemError, fileStatus: FileStatus.Failed });
        continue;
      }
    }
    outcomes.push(outcome);
  }
  return outcomes;
}

/**
 * One file, one transaction: the record row is locked (FOR UPDATE), so parallel calls for the same
 * file take turns and the later ones see the task the first one created (answered, not charged
 * again). Otherwise: > 3 h → 50001; a task row (queued); the charge — the record's live credit first,
 * then the business day's quota and the time cards (50002 / 20001 roll everything back); the record →
 * queued, progress 0.
 */
async function requestOne(
  ctx: DomainContext,
  userId: number,
  fileId: number,
  param: DictationParam,
  dailyLimit: number,
): Promise<{ outcome: FileOutcome; enqueue: boolean; created: boolean }> {
  const now = ctx.clock.now();
  try {
    return await ctx.db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<LockedRecord[]>`
        SELECT "userId", "timeLen", "liveCreditSeconds", "fileStatus", "deletedAt" FROM audio_records
        WHERE "fileId" = ${fileId}::int FOR UPDATE`;
      const record = rows[0];
      if (!record || record.userId !== userId || record.deletedAt !== null) {
        throw new RefusedInTx(StatusCode.RecordNotFound, FileStatus.NotFound, null);
      }
      if (OPEN_TASK_STATES.includes(record.fileStatus)) {
        const current = await tx.transcriptionTask.findFirst({
          where: { fileId, status: { in: OPEN_TASK_STATES } },
          orderBy: { id: "desc" },
          select: { id: true, status: true },
        });
        if (current) {
          // Already queued or running: answer its task (queue it again: a lost job is re-added, a kept one is a no-op).
          return {
            outcome: { fileId, taskId: current.id, fileStatus: record.fileStatus, code: 1 as const },
            enqueue: current.status === TaskState.Queued,
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
      // the record's own rule (50001); the quotas (50002, 20001) are the charge's conditional updates below
      const refused = transcriptionRefusal(record);
      if (refused) throw new RefusedInTx(refused, record.fileStatus, latest?.id ?? null);
      const task = await queueTask(tx, { fileId, userId, language: param.language, speakerCount: param.speakerCount });
      try {
        await chargeTranscription(tx, {
          userId,
          taskId: task.id,
          seconds: Math.max(0, Math.ceil(record.timeLen)),
          day: businessDay(now, ctx.config.BUSINESS_TZ),
          dailyLimit,
          now,
          // what the recording's live captions already paid is not paid again (docs/live.md "Metering")
          liveCredit: { fileId, seconds: record.liveCreditSeconds },
        });
      } catch (error) {
        if (error instanceof ChargeRefused) throw new RefusedInTx(error.code, record.fileStatus, latest?.id ?? null);
        throw error;
      }
      return {
        outcome: { fileId, taskId: task.id, fileStatus: TaskState.Queued, code: 1 as const },
        enqueue: true,
        created: true,
      };
    }, TX_OPTIONS);
  } catch (error) {
    if (!(error instanceof RefusedInTx)) throw error;
    return {
      outcome: { fileId, taskId: error.taskId, fileStatus: error.fileStatus, code: error.code },
      enqueue: false,
      created: false,
    };
  }
}

/**
 * dictationParam.hotWords join the user's saved hot words (the worker reads them when it claims the
 * task). Over 200 in all → 10002 naming dictationParam.hotWords.
 */
async function mergeHotWords(ctx: DomainContext, userId: number, words: string[]): Promise<void> {
  await ctx.db.$transaction(async (tx) => {
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
