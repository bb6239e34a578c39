import { FileStatus } from "@yuelu/contracts";

/**
 * THE state machine every task of the product shares — transcriptions, text-to-speech works, trained
 * voices and voice works (spec §4 task statuses):
 *
 *   created ──▶ queued (3) ──claim──▶ running (1) ──complete──▶ done (2)
 *                  ▲  │                 │  │
 *                  └──┼─────retry───────┘  │
 *                     └──fail──▶ failed (-1) ◀──fail
 *
 * Each kind moves its own table with a conditional update built from this one table of moves
 * (`where: { status: { in: from } }`), so workers, housekeeping and users can race on a task and
 * exactly one wins. `claim` also starts from running: a worker that died mid-job leaves its task
 * running and BullMQ hands the job to another worker. What a kind writes besides (its output, its
 * record's mirror, its refund) stays with the kind.
 */
export const TaskState = {
  Queued: FileStatus.InQueue,
  Running: FileStatus.Transcribing,
  Done: FileStatus.Complete,
  Failed: FileStatus.Failed,
} as const;

/** The states in which a task still holds its charge and may still run. */
export const OPEN_TASK_STATES: number[] = [TaskState.Queued, TaskState.Running];

export const TASK_MOVES = {
  claim: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Running },
  retry: { from: [TaskState.Running], to: TaskState.Queued },
  complete: { from: [TaskState.Running], to: TaskState.Done },
  fail: { from: [TaskState.Queued, TaskState.Running], to: TaskState.Failed },
} as const;
export type TaskMove = keyof typeof TASK_MOVES;

export interface MoveFacts {
  now: Date;
  errorCode?: number;
  errorReason?: string;
  errorMessage?: string;
}

/** The columns every task table has, as a move writes them (progress follows the state). */
export interface TaskColumns {
  status: number;
  progress: number;
  startedAt?: Date;
  finishedAt?: Date;
  attempts?: { increment: number };
  errorCode?: number | null;
  errorReason?: string | null;
  errorMessage?: string | null;
}

export function taskColumns(move: TaskMove, facts: MoveFacts): TaskColumns {
  const to = TASK_MOVES[move].to;
  switch (move) {
    case "claim":
      return { status: to, progress: 0, startedAt: facts.now, attempts: { increment: 1 } };
    case "retry":
      return { status: to, progress: 0 };
    case "complete":
      return {
        status: to,
        progress: 100,
        finishedAt: facts.now,
        errorCode: null,
        errorReason: null,
        errorMessage: null,
      };
    case "fail":
      return {
        status: to,
        progress: 0,
        finishedAt: facts.now,
        errorCode: facts.errorCode ?? null,
        errorReason: facts.errorReason ?? null,
        errorMessage: facts.errorMessage?.slice(0, 500) ?? null,
      };
  }
}

/** The condition a move's update carries: the task is in one of the move's start states. */
export function movableFrom(move: TaskMove): { in: number[] } {
  return { in: [...TASK_MOVES[move].from] };
}

/** A progress value a running task may show: 0–99 (100 is written by complete). */
export function progressValue(progress: number): number {
  return Math.max(0, Math.min(99, Math.floor(progress)));
}
