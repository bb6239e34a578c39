import type { Task } from "@yuelu/contracts";
import { ProgressStatus } from "@yuelu/contracts/constants";

/** Spec §4 Tasks: progressStatus 0 unfinished, 1 can claim, anything else done (claimed). */
export type TaskState = "unfinished" | "claimable" | "claimed";

export function taskState(task: Pick<Task, "progressStatus">): TaskState {
  if (task.progressStatus === ProgressStatus.Unfinished) return "unfinished";
  if (task.progressStatus === ProgressStatus.Claimable) return "claimable";
  return "claimed";
}

/** Claiming is allowed only at progressStatus 1. */
export function canClaim(task: Pick<Task, "progressStatus">): boolean {
  return taskState(task) === "claimable";
}

/**
 * The progress as shown: 'done/total' for counts (1/1, 3/7); goals counted in larger units (the
 * seconds of 'transcribe 1 hour in total') read as a percent instead of '1200/3600'.
 */
export function taskProgress(task: Pick<Task, "progressAmount" | "progressFinish">): {
  done: number;
  total: number;
  percent: number;
  asPercent: boolean;
} {
  const total = Math.max(1, task.progressFinish);
  const done = Math.min(Math.max(0, task.progressAmount), total);
  return { done, total, percent: Math.floor((done / total) * 100), asPercent: total > 100 };
}
