import { FileStatus } from "@yuelu/contracts";
import type { Db, Prisma } from "@yuelu/db";
import type { Tx } from "../transaction.ts";

/**
 * THE state machine of a transcription task (spec §4 task statuses). Every change of a task's
 * status goes through `moveTask`, which also mirrors it on the task's record (the list shows the
 * record's fileStatus and progress):
 *
 *   record waiting (0) ──request──▶ queued (3) ──claim──▶ running (1) ──complete──▶ done (2)
 *                                      ▲  │                 │  │
 *                                      └──┼─────retry───────┘  │
 *                                         └──fail──▶ failed (-1) ◀──fail
 *
 * A failed task is refunded in the same transaction that fails it (refundedAt set: "refunded"), and
 * a queued or running task whose record is deleted forever is refunded in the transaction that
 * deletes it. `claim` also starts from running: a worker that died mid-job leaves its task running
 * and BullMQ hands the job to another worker.
 */
export const TaskState = {
  Queued: FileStatus.InQueue,
  Running: FileStatus.Transcribing,
  Done: FileStatus.Complete,
  Failed: FileStatus.Failed,
} as const;

/** The states in which a task still holds its charge and may still run. */
export const OPEN_TASK_STATES: number[] = [TaskState.Queued, TaskState.Running];

const MOVES = {
  claim: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Running },
  retry: { from: [TaskState.Running], to: TaskState.Queued },
  complete: { from: [TaskState.Running], to: TaskState.Done },
  fail: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Failed },
} as const;
export type TaskMove = keyof typeof MOVES;

/** What a move writes on the task (progress follows the state unless given). */
interface MoveData {
  now: Date;
  errorCode?: number;
  errorReason?: string;
  errorMessage?: string;
}

function taskData(move: TaskMove, data: MoveData): Prisma.TranscriptionTaskUpdateManyMutationInput {
  switch (move) {
    case "claim":
      return { status: MOVES.claim.to, progress: 0, startedAt: data.now, attempts: { increment: 1 } };
    case "retry":
      return { status: MOVES.retry.to, progress: 0 };
    case "complete":
      return {
        status: MOVES.complete.to,
        progress: 100,
        finishedAt: data.now,
        errorCode: null,
        errorReason: null,
        errorMessage: null,
      };
    case "fail":
      return {
        status: MOVES.fail.to,
        progress: 0,
        finishedAt: data.now,
        errorCode: data.errorCode ?? null,
        errorReason: data.errorReason ?? null,
        errorMessage: data.errorMessage?.slice(0, 500) ?? null,
      };
  }
}

export interface MovedTask {
  id: number;
  fileId: number;
  userId: number;
}

/**
 * Moves the task if it is in one of the move's start states (a conditional update, so two workers,
 * housekeeping and a user can race on it and exactly one wins), and mirrors the new state on its
 * record. Returns the task, or null when it was not in a start state (or is gone).
 */
export async function moveTask(tx: Tx, taskId: number, move: TaskMove, data: MoveData): Promise<MovedTask | null> {
  const { from, to } = MOVES[move];
  const [task] = await tx.transcriptionTask.updateManyAndReturn({
    where: { id: taskId, status: { in: [...from] } },
    data: taskData(move, data),
    select: { id: true, fileId: true, userId: true },
  });
  if (!task) return null;
  await tx.audioRecord.updateMany({
    where: { fileId: task.fileId, fileStatus: { in: [...from] } },
    data: { fileStatus: to, progress: to === TaskState.Done ? 100 : 0 },
  });
  return task;
}

/** A new task for a record (the request arrow): queued, and its record queued with progress 0. */
export async function queueTask(
  tx: Tx,
  task: { fileId: number; userId: number; language: string; speakerCount: number },
): Promise<{ id: number }> {
  const created = await tx.transcriptionTask.create({
    data: { ...task, status: TaskState.Queued, progress: 0 },
    select: { id: true },
  });
  await tx.audioRecord.update({ where: { fileId: task.fileId }, data: { fileStatus: TaskState.Queued, progress: 0 } });
  return created;
}

/** Progress 0–99 of a running task and its record; false when the task is no longer running. */
export async function setTaskProgress(
  db: Db,
  task: { id: number; fileId: number },
  progress: number,
): Promise<boolean> {
  const value = Math.max(0, Math.min(99, Math.floor(progress)));
  return db.$transaction(async (tx) => {
    const t = await tx.transcriptionTask.updateMany({
      where: { id: task.id, status: TaskState.Running },
      data: { progress: value },
    });
    if (t.count === 0) return false;
    await tx.audioRecord.updateMany({
      where: { fileId: task.fileId, fileStatus: TaskState.Running },
      data: { progress: value },
    });
    return true;
  });
}
