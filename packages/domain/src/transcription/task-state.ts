import type { Db } from "@yuelu/db";
import {
  type MoveFacts,
  movableFrom,
  progressValue,
  TASK_MOVES,
  type TaskMove,
  TaskState,
  taskColumns,
} from "../tasks/task-state.ts";
import type { Tx } from "../transaction.ts";

/**
 * The transcription task's moves (tasks/task-state.ts is the machine): every change of a task's
 * status goes through `moveTask`, which also mirrors it on the task's record (the list shows the
 * record's fileStatus and progress). A failed task is refunded in the same transaction that fails it
 * (refundedAt set: "refunded"), and a queued or running task whose record is deleted forever is
 * refunded in the transaction that deletes it.
 */
export { OPEN_TASK_STATES, type TaskMove, TaskState } from "../tasks/task-state.ts";

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
export async function moveTask(tx: Tx, taskId: number, move: TaskMove, data: MoveFacts): Promise<MovedTask | null> {
  const { from, to } = TASK_MOVES[move];
  const [task] = await tx.transcriptionTask.updateManyAndReturn({
    where: { id: taskId, status: movableFrom(move) },
    data: taskColumns(move, data),
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
  const value = progressValue(progress);
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
