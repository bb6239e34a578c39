import { MY_VOICE_MAX_COUNT, StatusCode } from "@yuelu/contracts";
import { type Db, Prisma, type UserVoiceModel as UserVoice } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { TaskState } from "../tasks/task-state.ts";
import { TX_OPTIONS, type Tx } from "../transaction.ts";
import { refundVoiceTask } from "./lifecycle.ts";
import { chargeVoiceDay, voiceChargeTerms } from "./quota.ts";

/**
 * "My voice" (docs/voice.md): each user's own voices. A voice is a stored sample and the analysis the
 * worker makes of it; nobody but its owner reads, hears, uses or deletes it (another user's voice
 * answers exactly like a missing one: 20003).
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "config">;

export interface VoiceSampleInput {
  /** where the accepted sample already is in the file store */
  sourceKey: string;
  sampleSeconds: number;
  requestId?: string | undefined;
}

/** The user's voice or 20003. */
export async function ownMyVoice(db: Db | Tx, userId: number, voiceId: number): Promise<UserVoice> {
  const voice = await db.userVoice.findFirst({ where: { id: voiceId, userId } });
  if (!voice) throw new AppError(StatusCode.FileNotFound);
  return voice;
}

/** A voice of the user's that is ready to speak (start_tts, sing, convert): else 10002 naming `field`. */
export async function readyMyVoice(db: Db, userId: number, voiceId: number, field = "myVoiceId"): Promise<UserVoice> {
  const voice = await db.userVoice.findFirst({ where: { id: voiceId, userId } });
  if (!voice) throw new AppError(StatusCode.FileNotFound);
  if (voice.status !== TaskState.Done) throw AppError.invalid(field, "the voice is not ready yet");
  return voice;
}

export function listMyVoices(db: Db, userId: number): Promise<UserVoice[]> {
  return db.userVoice.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

export async function ownMyVoices(db: Db, userId: number, voiceIds: number[]): Promise<UserVoice[]> {
  const rows = await db.userVoice.findMany({ where: { id: { in: voiceIds }, userId } });
  return voiceIds.flatMap((id) => rows.filter((r) => r.id === id));
}

/**
 * A new voice from an accepted sample: queued, one unit of the day's quota charged, at most
 * MY_VOICE_MAX_COUNT voices per user (counted under a lock on the user's row, before comparing, so
 * parallel creates cannot pass it). The same requestId again answers the first voice with
 * `created: false` (the caller then removes the sample it stored).
 */
export async function createMyVoice(
  ctx: Ctx,
  userId: number,
  input: VoiceSampleInput & { name: string; language: "zh" | "en" },
): Promise<{ voice: UserVoice; created: boolean }> {
  const earlier = await byRequest(ctx.db, userId, input.requestId);
  if (earlier) return { voice: earlier, created: false };
  const terms = await voiceChargeTerms(ctx, userId);
  try {
    const voice = await ctx.db.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${userId} FOR UPDATE`;
      const kept = await tx.userVoice.count({ where: { userId } });
      if (kept >= MY_VOICE_MAX_COUNT) throw new AppError(StatusCode.MyVoiceLimit, { limit: MY_VOICE_MAX_COUNT });
      await chargeVoiceDay(tx, userId, terms);
      return tx.userVoice.create({
        data: {
          userId,
          name: input.name,
          language: input.language,
          sourceKey: input.sourceKey,
          sampleSeconds: input.sampleSeconds,
          requestId: input.requestId ?? null,
          status: TaskState.Queued,
          quotaDay: terms.day,
        },
      });
    }, TX_OPTIONS);
    return { voice, created: true };
  } catch (error) {
    const raced = await sameRequestRaced(ctx.db, userId, input.requestId, error);
    if (raced) return { voice: raced, created: false };
    throw error;
  }
}

/**
 * Trains the voice again from a new sample: back to queued with the analysis cleared, one unit
 * charged. Returns the files the old sample and preview leave behind (the caller removes them after
 * the commit). The same requestId again changes nothing (`retrained: false`).
 */
export async function retrainMyVoice(
  ctx: Ctx,
  userId: number,
  voiceId: number,
  input: VoiceSampleInput,
): Promise<{ voice: UserVoice; retrained: boolean; oldKeys: string[] }> {
  const terms = await voiceChargeTerms(ctx, userId);
  return ctx.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM user_voices WHERE id = ${voiceId} AND "userId" = ${userId} FOR UPDATE`;
    if (!row) throw new AppError(StatusCode.FileNotFound);
    const voice = await tx.userVoice.findUniqueOrThrow({ where: { id: voiceId } });
    if (input.requestId && voice.requestId === input.requestId) return { voice, retrained: false, oldKeys: [] };
    const now = ctx.clock.now();
    // an analysis still waiting or running is superseded: its unit goes back, the new one is charged
    if (voice.status === TaskState.Queued || voice.status === TaskState.Running) {
      await refundVoiceTask(tx, "voice", voiceId, now);
    }
    await chargeVoiceDay(tx, userId, terms);
    const updated = await tx.userVoice.update({
      where: { id: voiceId },
      data: {
        sourceKey: input.sourceKey,
        sampleSeconds: input.sampleSeconds,
        requestId: input.requestId ?? null,
        status: TaskState.Queued,
        progress: 0,
        profile: Prisma.DbNull,
        baseProfile: Prisma.DbNull,
        quality: Prisma.DbNull,
        previewKey: null,
        quotaDay: terms.day,
        refundedAt: null,
        errorCode: null,
        errorReason: null,
        errorMessage: null,
        startedAt: null,
        finishedAt: null,
      },
    });
    const oldKeys = [voice.sourceKey, voice.previewKey].filter((k): k is string => !!k && k !== input.sourceKey);
    return { voice: updated, retrained: true, oldKeys };
  }, TX_OPTIONS);
}

export async function renameMyVoice(ctx: Pick<Ctx, "db">, userId: number, voiceId: number, name: string) {
  const { count } = await ctx.db.userVoice.updateMany({ where: { id: voiceId, userId }, data: { name } });
  if (count === 0) throw new AppError(StatusCode.FileNotFound);
  return ownMyVoice(ctx.db, userId, voiceId);
}

/**
 * Deletes the voice: an analysis not yet done gives its unit back; TTS tasks and works that used it
 * keep their audio (their voice link is cleared by the database). Returns the files to remove (the
 * sample and the preview) — the caller removes them after the commit.
 */
export async function deleteMyVoice(ctx: Ctx, userId: number, voiceId: number): Promise<string[]> {
  return ctx.db.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: number; status: number; sourceKey: string; previewKey: string | null }[]>`
      SELECT id, status, "sourceKey", "previewKey" FROM user_voices
      WHERE id = ${voiceId} AND "userId" = ${userId} FOR UPDATE`;
    if (!row) throw new AppError(StatusCode.FileNotFound);
    if (row.status === TaskState.Queued || row.status === TaskState.Running) {
      await refundVoiceTask(tx, "voice", voiceId, ctx.clock.now());
    }
    await tx.userVoice.delete({ where: { id: voiceId } });
    return [row.sourceKey, row.previewKey].filter((k): k is string => !!k);
  }, TX_OPTIONS);
}

async function byRequest(db: Db, userId: number, requestId: string | undefined) {
  if (!requestId) return null;
  return db.userVoice.findUnique({ where: { userId_requestId: { userId, requestId } } });
}

/** Two creates with one requestId raced: the loser answers the winner's voice. */
async function sameRequestRaced(db: Db, userId: number, requestId: string | undefined, error: unknown) {
  if (!(error instanceof Prisma.PrismaClientKnownRequestError) || error.code !== "P2002") return null;
  return byRequest(db, userId, requestId);
}
