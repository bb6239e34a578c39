import { StatusCode, type TtsFormat, ttsCharCount, ttsFailureReason, withoutUnsafe } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { TaskState } from "../tasks/task-state.ts";
import { businessDay } from "../time.ts";
import { TX_OPTIONS } from "../transaction.ts";
import { failTtsTask } from "./lifecycle.ts";
import { chargeTts, TtsChargeRefused, ttsDailyLimitOf } from "./quota.ts";
import type { LibraryVoice } from "./voices.ts";

/** start_tts (docs/tts.md "Synthesis"): the task row, its charge, and its job. */

export interface SynthesisRequest {
  /** trimmed, 1–5000 characters (the contract checked it) */
  text: string;
  voice: LibraryVoice;
  speed: number;
  pitch: number;
  volume: number;
  format: TtsFormat;
  title?: string;
  /** one of the user's voices (docs/voice.md): `voice` is its base, and the task names it */
  userVoice?: { id: number; name: string };
}

/** Adds the task's job to the "tts" queue (the API's BullMQ producer); the same task id twice is a no-op. */
export type EnqueueSynthesis = (taskId: number) => Promise<void>;

/** A work's default title: the start of its text on one line (at most 20 characters). */
export function defaultTitle(text: string): string {
  // the title rule of explicit titles and renames: no controls, no bidi overrides (a file name comes from it)
  const line = withoutUnsafe(text.replace(/\s+/g, " ")).trim();
  const chars = [...line];
  return chars.length <= 20 ? line : `${chars.slice(0, 20).join("")}…`;
}

/**
 * Creates the task (queued) and charges its characters against the user's business day in ONE
 * transaction: over the cap → 50003 and nothing is left behind; parallel requests take turns on the
 * day's row, so together they never pass it. After the commit the job is queued; if that fails the
 * task fails at once and is refunded (99999). Returns the new task's id.
 */
export async function requestSynthesis(
  ctx: DomainContext,
  userId: number,
  request: SynthesisRequest,
  enqueue: EnqueueSynthesis,
): Promise<number> {
  const { voice } = request;
  const chars = ttsCharCount(request.text);
  const limit = await ttsDailyLimitOf(ctx, userId);
  const day = businessDay(ctx.clock.now(), ctx.config.BUSINESS_TZ);
  let taskId: number;
  try {
    taskId = await ctx.db.$transaction(async (tx) => {
      const task = await tx.ttsTask.create({
        data: {
          userId,
          title: request.title ?? defaultTitle(request.text),
          text: request.text,
          chars,
          language: voice.language,
          promptId: voice.promptId,
          voiceName: request.userVoice?.name ?? voice.name,
          voiceNameEn: request.userVoice?.name ?? voice.nameEn,
          userVoiceId: request.userVoice?.id ?? null,
          engine: voice.engine,
          voiceParams: voice.params as object,
          speed: request.speed,
          pitch: request.pitch,
          volume: request.volume,
          format: request.format,
          status: TaskState.Queued,
          progress: 0,
        },
        select: { id: true },
      });
      await chargeTts(tx, { userId, taskId: task.id, chars, day, limit });
      return task.id;
    }, TX_OPTIONS);
  } catch (error) {
    if (error instanceof TtsChargeRefused) throw new AppError(StatusCode.TtsQuotaExceeded, { limit: error.limit });
    throw error;
  }
  try {
    await enqueue(taskId);
  } catch (error) {
    await failTtsTask(ctx, taskId, {
      code: StatusCode.SystemError,
      reason: ttsFailureReason("not-queued"),
      detail: `could not add the job: ${(error as Error).message}`,
    });
    throw new AppError(StatusCode.SystemError);
  }
  return taskId;
}
