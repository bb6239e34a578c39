import type { Db, Prisma } from "@yuelu/db";
import {
  type MoveFacts,
  movableFrom,
  progressValue,
  type TaskMove,
  TaskState,
  taskColumns,
} from "../tasks/task-state.ts";
import type { Tx } from "../transaction.ts";

/**
 * The voice queue's two kinds of task — a trained voice ("voice", a UserVoice row) and a sung or
 * converted song ("work", a VoiceWork row) — move through the shared machine (tasks/task-state.ts);
 * this file only says which table each kind writes.
 */
export type VoiceTaskKind = "voice" | "work";

export interface MovedVoiceTask {
  id: number;
  userId: number;
  /** the voice's name or the work's title (for messages) */
  name: string;
  quotaDay: string | null;
}

export interface VoiceMoveData extends MoveFacts {
  /** written on complete (the kind's own output columns) */
  output?: Prisma.UserVoiceUpdateManyMutationInput | Prisma.VoiceWorkUpdateManyMutationInput;
}

export async function moveVoiceTask(
  tx: Tx,
  kind: VoiceTaskKind,
  id: number,
  move: TaskMove,
  data: VoiceMoveData,
): Promise<MovedVoiceTask | null> {
  const columns = { ...taskColumns(move, data), ...(move === "complete" ? data.output : {}) };
  const where = { id, status: movableFrom(move) };
  if (kind === "voice") {
    const [row] = await tx.userVoice.updateManyAndReturn({
      where,
      data: columns as Prisma.UserVoiceUpdateManyMutationInput,
      select: { id: true, userId: true, name: true, quotaDay: true },
    });
    return row ?? null;
  }
  const [row] = await tx.voiceWork.updateManyAndReturn({
    where,
    data: columns as Prisma.VoiceWorkUpdateManyMutationInput,
    select: { id: true, userId: true, title: true, quotaDay: true },
  });
  return row ? { id: row.id, userId: row.userId, name: row.title, quotaDay: row.quotaDay } : null;
}

/** Progress 0–99 of a running task; false when it is no longer running (failed, deleted): stop working on it. */
export async function setVoiceProgress(db: Db, kind: VoiceTaskKind, id: number, progress: number): Promise<boolean> {
  const where = { id, status: TaskState.Running };
  const data = { progress: progressValue(progress) };
  const { count } =
    kind === "voice" ? await db.userVoice.updateMany({ where, data }) : await db.voiceWork.updateMany({ where, data });
  return count === 1;
}

/**
 * Marks the task refunded when it was charged and not yet refunded (exactly once), and says which
 * day to give back; null when there is nothing to give.
 */
export async function takeRefund(tx: Tx, kind: VoiceTaskKind, id: number, now: Date) {
  const where = { id, refundedAt: null, quotaDay: { not: null } };
  const select = { userId: true, quotaDay: true } as const;
  const [row] =
    kind === "voice"
      ? await tx.userVoice.updateManyAndReturn({ where, data: { refundedAt: now }, select })
      : await tx.voiceWork.updateManyAndReturn({ where, data: { refundedAt: now }, select });
  return row ?? null;
}
