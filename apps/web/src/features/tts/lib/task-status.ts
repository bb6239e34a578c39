import { FileStatus } from "@yuelu/contracts/constants";

/**
 * A synthesis task's status: spec §4's task statuses (0 waiting, 3 in queue, 1 running, 2 complete,
 * -1 failed, -10 not found), which the contracts name after the transcription they first served.
 */
export const TaskStatus = FileStatus;

export function isTaskRunning(status: number): boolean {
  return status === TaskStatus.Waiting || status === TaskStatus.InQueue || status === TaskStatus.Transcribing;
}

export type TaskPhase = "queued" | "running" | "done" | "failed" | "gone";

export function taskPhase(status: number): TaskPhase {
  if (status === TaskStatus.Complete) return "done";
  if (status === TaskStatus.Failed) return "failed";
  if (status === TaskStatus.NotFound) return "gone";
  if (status === TaskStatus.Transcribing) return "running";
  return "queued";
}
