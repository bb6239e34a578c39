import { StatusCode } from "@yuelu/contracts";
import type { Db, TtsTaskModel as TtsTask } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { transact } from "../transaction.ts";
import { refundTts } from "./quota.ts";
import { TTS_OPEN_STATES } from "./task-state.ts";

/** 'My works': each user reads, renames and deletes only their own text-to-speech tasks. */

/** The user's task, or 30001 (another user's task answers exactly like a missing one). */
export async function ownTtsTask(db: Db, userId: number, taskId: number): Promise<TtsTask> {
  const task = await db.ttsTask.findFirst({ where: { id: taskId, userId } });
  if (!task) throw new AppError(StatusCode.RecordNotFound);
  return task;
}

/** A page of the user's works, newest first; `status` filters by one task status. */
export async function listTtsTasks(
  db: Db,
  userId: number,
  query: { page: number; pageSize: number; status?: number },
): Promise<{ total: number; rows: TtsTask[] }> {
  const where = { userId, ...(query.status !== undefined ? { status: query.status } : {}) };
  const [total, rows] = await Promise.all([
    db.ttsTask.count({ where }),
    db.ttsTask.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
  ]);
  return { total, rows };
}

/** The tasks among `taskIds` that are the user's, in the order asked (others are left out). */
export async function ownTtsTasks(db: Db, userId: number, taskIds: number[]): Promise<TtsTask[]> {
  const rows = await db.ttsTask.findMany({ where: { id: { in: taskIds }, userId } });
  return taskIds.flatMap((id) => rows.filter((r) => r.id === id));
}

export async function renameTtsTask(ctx: Pick<DomainContext, "db">, userId: number, taskId: number, title: string) {
  const { count } = await ctx.db.ttsTask.updateMany({ where: { id: taskId, userId }, data: { title } });
  if (count === 0) throw new AppError(StatusCode.RecordNotFound);
  return ownTtsTask(ctx.db, userId, taskId);
}

/**
 * Deletes the user's works: every id must be one of theirs (else 30001 and nothing changes). A task
 * still queued or running is refunded in the same transaction (its worker finds it gone and drops
 * its audio); finished ones keep their charge. The audio files go after the commit.
 */
export async function deleteTtsTasks(ctx: DomainContext, userId: number, taskIds: number[]): Promise<number[]> {
  const keys = await transact(ctx, async (tx) => {
    const rows = await tx.$queryRaw<{ id: number; status: number; outputKey: string | null }[]>`
      SELECT id, status, "outputKey" FROM tts_tasks
      WHERE id = ANY(${taskIds}::int[]) AND "userId" = ${userId}::int FOR UPDATE`;
    if (rows.length !== taskIds.length) throw new AppError(StatusCode.RecordNotFound);
    const now = ctx.clock.now();
    for (const row of rows) if (TTS_OPEN_STATES.includes(row.status)) await refundTts(tx, row.id, now);
    await tx.ttsTask.deleteMany({ where: { id: { in: taskIds }, userId } });
    return rows.flatMap((r) => (r.outputKey ? [r.outputKey] : []));
  });
  await Promise.all(keys.map((key) => ctx.files.delete(key)));
  return taskIds;
}
