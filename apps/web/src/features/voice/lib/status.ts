import { FileStatus } from "@yuelu/contracts/constants";

/**
 * A voice's or a work's status: spec §4's task statuses (3 queued, 1 analysing or making, 2 ready
 * or done, -1 failed; -10 not found), which the contracts name after the transcription they first served.
 */
export type Phase = "queued" | "running" | "done" | "failed" | "gone";

export function phaseOf(status: number): Phase {
  if (status === FileStatus.Complete) return "done";
  if (status === FileStatus.Failed) return "failed";
  if (status === FileStatus.NotFound) return "gone";
  if (status === FileStatus.Transcribing) return "running";
  return "queued";
}

export function isRunning(status: number): boolean {
  const phase = phaseOf(status);
  return phase === "queued" || phase === "running";
}
