import { type TtsFormat, type TtsLanguage, ttsFailureMessage } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { sendUserMessage } from "../messages/send.ts";
import { advanceTasks } from "../rewards/task-progress.ts";
import { businessDay } from "../time.ts";
import { TX_OPTIONS, transact } from "../transaction.ts";
import { refundTts } from "./quota.ts";
import { moveTtsTask, setTtsProgress } from "./task-state.ts";

/** The moves a worker makes while it runs a text-to-speech task (see task-state.ts). */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/** What a worker needs to synthesise a claimed task. */
export interface ClaimedTtsTask {
  id: number;
  userId: number;
  text: string;
  chars: number;
  language: TtsLanguage;
  engine: string;
  params: Record<string, unknown>;
  speed: number;
  pitch: number;
  volume: number;
  format: TtsFormat;
  attempts: number;
  /** one of the user's voices (docs/voice.md): the worker moves the library voice toward it */
  userVoiceId: number | null;
}

/** An attempt starts: queued (or running, after a dead worker) → running. Null when the task is not waiting for one. */
export async function claimTtsTask(ctx: Pick<Ctx, "db" | "clock">, taskId: number): Promise<ClaimedTtsTask | null> {
  return ctx.db.$transaction(async (tx) => {
    const moved = await moveTtsTask(tx, taskId, "claim", { now: ctx.clock.now() });
    if (!moved) return null;
    const task = await tx.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
    const params =
      task.voiceParams && typeof task.voiceParams === "object" && !Array.isArray(task.voiceParams)
        ? (task.voiceParams as Record<string, unknown>)
        : {};
    return {
      id: task.id,
      userId: task.userId,
      text: task.text,
      chars: task.chars,
      language: task.language === "en" ? "en" : "zh",
      engine: task.engine,
      params,
      speed: task.speed,
      pitch: task.pitch,
      volume: task.volume,
      format: task.format === "wav" ? "wav" : "mp3",
      attempts: task.attempts,
      userVoiceId: task.userVoiceId,
    };
  }, TX_OPTIONS);
}

/** Progress (0–99) of a running task; false when it stopped running (failed, deleted): stop working on it. */
export function reportTtsProgress(ctx: Pick<Ctx, "db">, taskId: number, progress: number): Promise<boolean> {
  return setTtsProgress(ctx.db, taskId, progress);
}

export interface TtsOutput {
  outputKey: string;
  fileSize: number;
  durationMs: number;
}

/**
 * The audio is stored: running → done with its file, in one transaction with what it earns (the
 * daily 'tts' task). False when the task stopped running meanwhile (deleted, failed by housekeeping):
 * nothing is written then, and the caller removes the file it stored.
 */
export async function completeTtsTask(ctx: Ctx, taskId: number, output: TtsOutput): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const moved = await moveTtsTask(tx, taskId, "complete", { now: ctx.clock.now(), output });
    if (!moved) return false;
    await advanceTasks(tx, moved.userId, "tts", 1, businessDay(ctx.clock.now(), ctx.config.BUSINESS_TZ));
    after.publish({ type: "tts.done", userId: moved.userId, taskId });
    return true;
  });
}

/** Between attempts: running → queued, progress 0. */
export async function retryTtsTask(ctx: Pick<Ctx, "db" | "clock">, taskId: number): Promise<boolean> {
  return ctx.db.$transaction(async (tx) => (await moveTtsTask(tx, taskId, "retry", { now: ctx.clock.now() })) !== null);
}

export interface TtsTaskFailure {
  code: number;
  /** a ttsFailureReason() of contracts/tts-constants.ts */
  reason: string;
  /** for operators (logs, the database); users see the translated reason */
  detail?: string;
}

/**
 * The task's final failure: queued/running → failed, its characters refunded in the same
 * transaction, and a message telling the user why. Returns whether this call failed it.
 */
export async function failTtsTask(ctx: Ctx, taskId: number, failure: TtsTaskFailure): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const now = ctx.clock.now();
    const moved = await moveTtsTask(tx, taskId, "fail", {
      now,
      errorCode: failure.code,
      errorReason: failure.reason,
      errorMessage: failure.detail,
    });
    if (!moved) return false;
    await refundTts(tx, taskId, now);
    await sendUserMessage(tx, moved.userId, {
      title: "语音合成失败",
      text: `「${moved.title}」语音合成失败：${ttsFailureMessage(failure.reason, "zh")}`,
      titleEn: "Speech synthesis failed",
      textEn: `“${moved.title}” could not be synthesised: ${ttsFailureMessage(failure.reason, "en")}`,
      sourceRef: `tts:${taskId}`,
      at: now,
    });
    after.publish({ type: "tts.failed", userId: moved.userId, taskId, code: failure.code });
    return true;
  });
}
