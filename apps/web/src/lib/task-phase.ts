import { FileStatus } from "@yuelu/contracts/constants";

/**
 * Where a task stands — a synthesis, a voice's analysis, a sung or converted song: spec §4's task
 * statuses (0 waiting, 3 in queue, 1 running, 2 complete, -1 failed, -10 not found), which the
 * contracts name after the transcription they first served.
 */
export type TaskPhase = "queued" | "running" | "done" | "failed" | "gone";

export function taskPhase(status: number): TaskPhase {
  if (status === FileStatus.Complete) return "done";
  if (status === FileStatus.Failed) return "failed";
  if (status === FileStatus.NotFound) return "gone";
  if (status === FileStatus.Transcribing) return "running";
  return "queued";
}

/** Still to finish (queued or running): its progress is polled. */
export function isTaskRunning(status: number): boolean {
  const phase = taskPhase(status);
  return phase === "queued" || phase === "running";
}
