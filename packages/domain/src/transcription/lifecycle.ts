import { type Segment, transcriptionFailureMessage } from "@yuelu/contracts";
import { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { sendNotice } from "../messages/notices.ts";
import { sendUserMessage } from "../messages/send.ts";
import { rememberSpeakers } from "../people/people.ts";
import type { SpeakerVoice } from "../people/prints.ts";
import { writeTranscript } from "../records/transcript.ts";
import { advanceTasks } from "../rewards/task-progress.ts";
import { businessDay } from "../time.ts";
import { transact } from "../transaction.ts";
import { refundTranscription } from "../wallet/transcription-charge.ts";
import { moveTask, setTaskProgress, TaskState } from "./task-state.ts";

/** The moves a worker makes while it runs a task (see task-state.ts). */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/** What a worker needs to run a claimed task. */
export interface ClaimedTask {
  id: number;
  fileId: number;
  userId: number;
  language: string;
  speakerCount: number;
  storageKey: string;
  timeLen: number;
  hotWords: string[];
  /** this attempt's number (the task's `attempts` after the claim): checkpoints are written under it */
  attempt: number;
  /** what an earlier attempt recognised (worker/jobs/checkpoint.ts decides whether it can be used) */
  checkpoint: unknown;
}

/** An attempt starts: queued (or running, after a dead worker) → running. Null when the task is not waiting for one. */
export async function claimTask(ctx: Ctx, taskId: number): Promise<ClaimedTask | null> {
  return ctx.db.$transaction(async (tx) => {
    const moved = await moveTask(tx, taskId, "claim", { now: ctx.clock.now() });
    if (!moved) return null;
    const task = await tx.transcriptionTask.findUniqueOrThrow({
      where: { id: taskId },
      include: { record: { select: { storageKey: true, timeLen: true } } },
    });
    const hotWords = await tx.hotWord.findMany({ where: { userId: task.userId }, orderBy: { id: "asc" } });
    return {
      id: task.id,
      fileId: task.fileId,
      userId: task.userId,
      language: task.language,
      speakerCount: task.speakerCount,
      storageKey: task.record.storageKey,
      timeLen: task.record.timeLen,
      hotWords: hotWords.map((h) => h.word),
      attempt: task.attempts,
      checkpoint: task.checkpoint,
    };
  });
}

/** Progress of a running task (0–99); false when it is no longer running (failed, deleted): stop working on it. */
export function reportTaskProgress(ctx: Pick<Ctx, "db">, task: { id: number; fileId: number }, progress: number) {
  return setTaskProgress(ctx.db, task, progress);
}

/**
 * What the running attempt has recognised so far (one UPDATE). Guarded by status and attempt: a
 * worker that lost its job (a stale lock, the task failed or retried by another) cannot overwrite
 * a newer attempt's checkpoint. False when the attempt is no longer the task's current one.
 */
export async function saveTaskCheckpoint(
  ctx: Pick<Ctx, "db">,
  task: { id: number; attempt: number },
  checkpoint: object,
): Promise<boolean> {
  const { count } = await ctx.db.transcriptionTask.updateMany({
    where: { id: task.id, status: TaskState.Running, attempts: task.attempt },
    data: { checkpoint },
  });
  return count > 0;
}

/**
 * The transcript is ready: running → done and the transcript stored, in one transaction with what
 * it earns — the daily 'transcribe' task and the seconds of 'transcribe_seconds' — and the message
 * telling the user. False when the task stopped running meanwhile (its record was deleted,
 * housekeeping failed it): nothing is written then.
 */
export async function completeTask(
  ctx: Ctx,
  taskId: number,
  transcript: {
    segments: Segment[];
    language: string;
    audioReport?: object;
    /** the speakers' voiceprints (docs/people.md): kept and matched while the user remembers voices */
    voices?: readonly SpeakerVoice[];
  },
): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const moved = await moveTask(tx, taskId, "complete", { now: ctx.clock.now() });
    if (!moved) return false;
    // people: the speakers' prints kept, and those whose voice is known named (suggested)
    const segments = await rememberSpeakers(
      tx,
      { userId: moved.userId, fileId: moved.fileId, voices: transcript.voices ?? [] },
      transcript.segments,
    );
    // the checkpoint has served: a finished task keeps no half transcript
    await tx.transcriptionTask.update({ where: { id: taskId }, data: { checkpoint: Prisma.DbNull } });
    // a transcript made again starts without the summary of the one it replaces
    await writeTranscript(tx, after, {
      fileId: moved.fileId,
      userId: moved.userId,
      change: "finished",
      fields: {
        asrResult: segments as unknown as Prisma.InputJsonValue,
        language: transcript.language,
        abstracts: "",
        audioReport: (transcript.audioReport as Prisma.InputJsonValue | undefined) ?? Prisma.DbNull,
      },
    });
    const record = await tx.audioRecord.findUniqueOrThrow({ where: { fileId: moved.fileId } });
    const now = ctx.clock.now();
    const today = businessDay(now, ctx.config.BUSINESS_TZ);
    await advanceTasks(tx, moved.userId, "transcribe", 1, today);
    await advanceTasks(tx, moved.userId, "transcribe_seconds", record.timeLen, today);
    // routine news: the day's one "transcriptions finished" notice lists it (messages/notices.ts)
    await sendNotice(
      tx,
      moved.userId,
      "transcribed",
      {
        ref: `transcription:${taskId}`,
        at: now,
        title: "转写完成",
        text: `「${record.fileName}」已转写完成，可在“我的记录”中查看和编辑。`,
        titleEn: "Transcription finished",
        textEn: `“${record.fileName}” has been transcribed: open it from My records to read and edit it.`,
        line: `「${record.fileName}」`,
        lineEn: `“${record.fileName}”`,
      },
      ctx.config.BUSINESS_TZ,
    );
    after.publish({ type: "transcription.done", userId: moved.userId, taskId, fileId: moved.fileId });
    return true;
  });
}

/** Between attempts: running → queued, progress 0. */
export async function retryTask(ctx: Pick<Ctx, "db" | "clock">, taskId: number): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => (await moveTask(tx, taskId, "retry", { now: ctx.clock.now() })) !== null);
}

export interface TaskFailure {
  code: number;
  /** a failureReason() of contracts/engines.ts */
  reason: string;
  /** for operators (logs, the database); users see the translated reason */
  detail?: string;
}

/**
 * The task's final failure: queued/running → failed, and its charge refunded in the same
 * transaction. Returns whether this call failed it (false: it was done, failed or gone already).
 */
export async function failTask(ctx: Ctx, taskId: number, failure: TaskFailure): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const now = ctx.clock.now();
    const moved = await moveTask(tx, taskId, "fail", {
      now,
      errorCode: failure.code,
      errorReason: failure.reason,
      errorMessage: failure.detail,
    });
    if (!moved) return false;
    await tx.transcriptionTask.update({ where: { id: taskId }, data: { checkpoint: Prisma.DbNull } });
    await refundTranscription(tx, taskId, now);
    const record = await tx.audioRecord.findUnique({ where: { fileId: moved.fileId }, select: { fileName: true } });
    await sendUserMessage(tx, moved.userId, {
      title: "转写失败",
      text: `「${record?.fileName ?? ""}」转写失败：${transcriptionFailureMessage(failure.reason, "zh")}`,
      titleEn: "Transcription failed",
      textEn: `“${record?.fileName ?? ""}” could not be transcribed: ${transcriptionFailureMessage(failure.reason, "en")}`,
      sourceRef: `transcription:${taskId}`,
      at: now,
    });
    after.publish({
      type: "transcription.failed",
      userId: moved.userId,
      taskId,
      fileId: moved.fileId,
      code: failure.code,
    });
    return true;
  });
}
