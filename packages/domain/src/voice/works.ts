import { StatusCode, type VoiceWorkKind } from "@yuelu/contracts";
import { type Db, Prisma, type VoiceWorkModel as VoiceWork } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { TaskState } from "../tasks/task-state.ts";
import { TX_OPTIONS } from "../transaction.ts";
import { refundVoiceTask } from "./lifecycle.ts";
import { chargeVoiceDay, voiceChargeTerms } from "./quota.ts";

/** Voice works (docs/voice.md "Works"): sung and converted songs, each user's own. */

type Ctx = Pick<DomainContext, "db" | "clock" | "config">;

export interface NewVoiceWork {
  kind: VoiceWorkKind;
  title: string;
  language: "zh" | "en";
  voice: { promptId: number | null; userVoiceId: number | null; name: string; nameEn: string };
  settings: Record<string, unknown>;
  /** the uploaded song or MIDI file, already in the file store */
  inputKey?: string | null;
  requestId?: string | undefined;
}

/**
 * A new work: queued, one unit of the day charged in the same transaction (over the cap: 50004 and
 * nothing is left). The same requestId again answers the first work with `created: false`.
 */
export async function createVoiceWork(
  ctx: Ctx,
  userId: number,
  input: NewVoiceWork,
): Promise<{ work: VoiceWork; created: boolean }> {
  const earlier = await byRequest(ctx.db, userId, input.requestId);
  if (earlier) return { work: earlier, created: false };
  const terms = await voiceChargeTerms(ctx, userId);
  try {
    const work = await ctx.db.$transaction(async (tx) => {
      await chargeVoiceDay(tx, userId, terms);
      return tx.voiceWork.create({
        data: {
          userId,
          kind: input.kind,
          title: input.title,
          language: input.language,
          promptId: input.voice.promptId,
          userVoiceId: input.voice.userVoiceId,
          voiceName: input.voice.name,
          voiceNameEn: input.voice.nameEn,
          settings: input.settings as Prisma.InputJsonObject,
          inputKey: input.inputKey ?? null,
          requestId: input.requestId ?? null,
          status: TaskState.Queued,
          quotaDay: terms.day,
        },
      });
    }, TX_OPTIONS);
    return { work, created: true };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const raced = await byRequest(ctx.db, userId, input.requestId);
      if (raced) return { work: raced, created: false };
    }
    throw error;
  }
}

/** The user's work or 20003 (another user's answers exactly like a missing one). */
export async function ownVoiceWork(db: Db, userId: number, workId: number): Promise<VoiceWork> {
  const work = await db.voiceWork.findFirst({ where: { id: workId, userId } });
  if (!work) throw new AppError(StatusCode.FileNotFound);
  return work;
}

export async function ownVoiceWorks(db: Db, userId: number, workIds: number[]): Promise<VoiceWork[]> {
  const rows = await db.voiceWork.findMany({ where: { id: { in: workIds }, userId } });
  return workIds.flatMap((id) => rows.filter((r) => r.id === id));
}

export async function listVoiceWorks(
  db: Db,
  userId: number,
  query: { kind?: VoiceWorkKind | undefined; page: number; pageSize: number },
): Promise<{ total: number; rows: VoiceWork[] }> {
  const where = { userId, ...(query.kind ? { kind: query.kind } : {}) };
  const [total, rows] = await Promise.all([
    db.voiceWork.count({ where }),
    db.voiceWork.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  return { total, rows };
}

export async function renameVoiceWork(ctx: Pick<Ctx, "db">, userId: number, workId: number, title: string) {
  const { count } = await ctx.db.voiceWork.updateMany({ where: { id: workId, userId }, data: { title } });
  if (count === 0) throw new AppError(StatusCode.FileNotFound);
  return ownVoiceWork(ctx.db, userId, workId);
}

/**
 * Deletes the user's works: every id must be one of theirs (else 20003 and nothing changes); one not
 * yet done gives its unit back (its worker finds it gone and drops what it made). Returns the files
 * to remove after the commit.
 */
export async function deleteVoiceWorks(ctx: Ctx, userId: number, workIds: number[]): Promise<string[]> {
  return ctx.db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<
      { id: number; status: number; inputKey: string | null; outputKey: string | null; vocalsKey: string | null }[]
    >`SELECT id, status, "inputKey", "outputKey", "vocalsKey" FROM voice_works
      WHERE id = ANY(${workIds}::int[]) AND "userId" = ${userId}::int FOR UPDATE`;
    if (rows.length !== workIds.length) throw new AppError(StatusCode.FileNotFound);
    const now = ctx.clock.now();
    for (const row of rows) {
      if (row.status === TaskState.Queued || row.status === TaskState.Running) {
        await refundVoiceTask(tx, "work", row.id, now);
      }
    }
    await tx.voiceWork.deleteMany({ where: { id: { in: workIds }, userId } });
    return rows.flatMap((r) => [r.inputKey, r.outputKey, r.vocalsKey]).filter((k): k is string => !!k);
  }, TX_OPTIONS);
}

async function byRequest(db: Db, userId: number, requestId: string | undefined) {
  if (!requestId) return null;
  return db.voiceWork.findUnique({ where: { userId_requestId: { userId, requestId } } });
}
