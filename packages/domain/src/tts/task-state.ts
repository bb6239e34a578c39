import type { Db, Prisma } from "@yuelu/db";
import {
  type MoveFacts,
  movableFrom,
  OPEN_TASK_STATES,
  progressValue,
  type TaskMove,
  TaskState,
  taskColumns,
} from "../tasks/task-state.ts";
import type { Tx } from "../transaction.ts";

/**
 * The text-to-speech task's moves (tasks/task-state.ts is the machine, shared with transcriptions and
 * voice works); every change of a TTS task's status goes through `moveTtsTask`:
 *
 *   start_tts ──▶ queued (3) ──claim──▶ running (1) ──complete──▶ done (2)
 *                   ▲  │                 │  │
 *                   └──┼─────retry───────┘  │
 *                      └──fail──▶ failed (-1) ◀──fail
 *
 * The charge (characters of the day's quota) is taken in the transaction that creates the task and
 * given back in the transaction that fails it, or that deletes it before it is done (works.ts).
 * `claim` also starts from running: a worker that died mid-job leaves its task running and BullMQ
 * hands the job to another worker.
 */
export const TTS_OPEN_STATES = OPEN_TASK_STATES;

export type TtsMove = TaskMove;

interface MoveData extends MoveFacts {
  output?: { outputKey: string; fileSize: number; durationMs: number };
}

function taskData(move: TtsMove, data: MoveData): Prisma.TtsTaskUpdateManyMutationInput {
  const columns = taskColumns(move, data);
  if (move !== "complete") return columns;
  return {
    ...columns,
    outputKey: data.output?.outputKey ?? null,
    fileSize: data.output?.fileSize ?? null,
    durationMs: data.output?.durationMs ?? null,
  };
}

export interface MovedTtsTask {
  id: number;
  userId: number;
  title: string;
}

/**
 * Moves the task when it is in one of the move's start states: a conditional update, so workers,
 * housekeeping and the user's delete can race on it and exactly one wins. Null when it was not (or is gone).
 */
export async function moveTtsTask(tx: Tx, taskId: number, move: TtsMove, data: MoveData): Promise<MovedTtsTask | null> {
  const [task] = await tx.ttsTask.updateManyAndReturn({
    where: { id: taskId, status: movableFrom(move) },
    data: taskData(move, data),
    select: { id: true, userId: true, title: true },
  });
  return task ?? null;
}

/** Progress 0–99 of a running task; false when it is no longer running (failed, deleted): stop working on it. */
export async function setTtsProgress(db: Db, taskId: number, progress: number): Promise<boolean> {
  const value = progressValue(progress);
  const { count } = await db.ttsTask.updateMany({
    where: { id: taskId, status: TaskState.Running },
    data: { progress: value },
  });
  return count === 1;
}
