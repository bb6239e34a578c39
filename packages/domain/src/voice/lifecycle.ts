import { StatusCode, voiceFailureText } from "@yuelu/contracts";
import type { Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { sendUserMessage } from "../messages/send.ts";
import { type Tx, transact } from "../transaction.ts";
import { refundVoiceDay } from "./quota.ts";
import { moveVoiceTask, setVoiceProgress, takeRefund, type VoiceTaskKind } from "./task-state.ts";

/** The moves a worker makes while it runs a voice-queue task (see task-state.ts). */

type Ctx = Pick<DomainContext, "db" | "clock" | "events" | "config">;

/** An attempt starts: queued (or running, after a dead worker) → running. False when it is not waiting for one. */
export async function claimVoiceTask(
  ctx: Pick<Ctx, "db" | "clock">,
  kind: VoiceTaskKind,
  id: number,
): Promise<boolean> {
  return ctx.db.$transaction(
    async (tx) => (await moveVoiceTask(tx, kind, id, "claim", { now: ctx.clock.now() })) !== null,
  );
}

export function reportVoiceProgress(ctx: Pick<Ctx, "db">, kind: VoiceTaskKind, id: number, progress: number) {
  return setVoiceProgress(ctx.db, kind, id, progress);
}

/** Between attempts: running → queued, progress 0. */
export async function retryVoiceTask(ctx: Pick<Ctx, "db" | "clock">, kind: VoiceTaskKind, id: number) {
  return ctx.db.$transaction(
    async (tx) => (await moveVoiceTask(tx, kind, id, "retry", { now: ctx.clock.now() })) !== null,
  );
}

/**
 * The result is stored: running → done with its output columns, and an event (the pages' task
 * progress). False when the task stopped running meanwhile (deleted, failed by housekeeping): the
 * caller then removes the files it stored.
 */
export async function completeVoiceTask(
  ctx: Ctx,
  kind: VoiceTaskKind,
  id: number,
  output: Prisma.UserVoiceUpdateManyMutationInput | Prisma.VoiceWorkUpdateManyMutationInput,
): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const moved = await moveVoiceTask(tx, kind, id, "complete", { now: ctx.clock.now(), output });
    if (!moved) return false;
    await sendUserMessage(tx, moved.userId, readyMessage(kind, moved.name, `${id}:${ctx.clock.now().getTime()}`));
    after.publish({ type: "voice.done", userId: moved.userId, kind, id });
    return true;
  });
}

export interface VoiceTaskFailure {
  /** 40003 (a sample not accepted) or 40004 (a work not made) */
  code: number;
  /** a SampleProblem or VoiceFailure of contracts/voice-constants.ts */
  reason: string;
  /** for operators only */
  detail?: string;
}

/**
 * The final failure: queued/running → failed, the day's unit given back in the same transaction, and
 * a message saying why. Returns whether this call failed it.
 */
export async function failVoiceTask(ctx: Ctx, kind: VoiceTaskKind, id: number, failure: VoiceTaskFailure) {
  return transact(ctx, async (tx, after) => {
    const now = ctx.clock.now();
    const moved = await moveVoiceTask(tx, kind, id, "fail", {
      now,
      errorCode: failure.code,
      errorReason: failure.reason,
      errorMessage: failure.detail,
    });
    if (!moved) return false;
    await refundVoiceTask(tx, kind, id, now);
    await sendUserMessage(tx, moved.userId, failedMessage(kind, moved.name, `${id}:${now.getTime()}`, failure.reason));
    after.publish({ type: "voice.failed", userId: moved.userId, kind, id, code: failure.code });
    return true;
  });
}

/** Gives the task's unit back once (a failure, or a delete before it was done). */
export async function refundVoiceTask(tx: Tx, kind: VoiceTaskKind, id: number, now: Date): Promise<void> {
  const charged = await takeRefund(tx, kind, id, now);
  if (charged) await refundVoiceDay(tx, charged.userId, charged.quotaDay);
}

/** `ref` makes the message once per outcome: a voice trained again gets a new one. */
function readyMessage(kind: VoiceTaskKind, name: string, ref: string) {
  return kind === "voice"
    ? {
        title: "声音已就绪",
        text: `您的声音「${name}」已分析完成，可以在文字转语音中使用了。`,
        titleEn: "Your voice is ready",
        textEn: `Your voice “${name}” is analysed and ready to use in text to speech.`,
        sourceRef: `myvoice:${ref}`,
      }
    : {
        title: "作品已完成",
        text: `您的作品「${name}」已生成，快去听听吧。`,
        titleEn: "Your work is ready",
        textEn: `Your work “${name}” is ready to listen to.`,
        sourceRef: `voicework:${ref}`,
      };
}

function failedMessage(kind: VoiceTaskKind, name: string, ref: string, reason: string) {
  return kind === "voice"
    ? {
        title: "声音分析失败",
        text: `声音「${name}」未能完成：${voiceFailureText(reason, "zh")}`,
        titleEn: "Your voice could not be made",
        textEn: `Your voice “${name}” could not be made: ${voiceFailureText(reason, "en")}`,
        sourceRef: `myvoice:${ref}:failed`,
      }
    : {
        title: "作品生成失败",
        text: `作品「${name}」生成失败：${voiceFailureText(reason, "zh")}`,
        titleEn: "Your work could not be made",
        textEn: `Your work “${name}” could not be made: ${voiceFailureText(reason, "en")}`,
        sourceRef: `voicework:${ref}:failed`,
      };
}

export const VOICE_FAILURE_CODE = { voice: StatusCode.VoiceSampleRejected, work: StatusCode.VoiceWorkFailed } as const;
