import type { Db, Prisma } from "@yuelu/db";
import type { Tx } from "../transaction.ts";
import { TaskState } from "../transcription/task-state.ts";

/**
 * THE state machine of a text-to-speech task. The states are the transcription task's (spec §4:
 * 3 in queue, 1 running, 2 complete, -1 failed), and every change of a TTS task's status goes through
 * `moveTtsTask`:
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
export const TTS_OPEN_STATES: number[] = [TaskState.Queued, TaskState.Running];

const MOVES = {
  claim: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Running },
  retry: { from: [TaskState.Running], to: TaskState.Queued },
  complete: { from: [TaskState.Running], to: TaskState.Done },
  fail: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Failed },
} as const;
export type TtsMove = keyof typeof MOVES;

interface MoveData {
  now: Date;
  output?: { outputKey: string; fileSize: number; durationMs: number };
  errorCode?: number;
  errorReason?: string;
  errorMessage?: string;
}

function taskData(move: TtsMove, data: MoveData): Prisma.TtsTaskUpdateManyMutationInput {
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
        outputKey: data.output?.outputKey ?? null,
        fileSize: data.output?.fileSize ?? null,
        durationMs: data.output?.durationMs ?? null,
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
  const { from } = MOVES[move];
  const [task] = await tx.ttsTask.updateManyAndReturn({
    where: { id: taskId, status: { in: [...from] } },
    data: taskData(move, data),
    select: { id: true, userId: true, title: true },
  });
  return task ?? null;
}

/** Progress 0–99 of a running task; false when it is no longer running (failed, deleted): stop working on it. */
export async function setTtsProgress(db: Db, taskId: number, progress: number): Promise<boolean> {
  const value = Math.max(0, Math.min(99, Math.floor(progress)));
  const { count } = await db.ttsTask.updateMany({
    where: { id: taskId, status: TaskState.Running },
    data: { progress: value },
  });
  return count === 1;
}
