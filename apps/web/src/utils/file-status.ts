import { FileStatus } from "@yuelu/contracts/constants";

/** Spec §4 audio file status (fileStatus, from the contracts) as the records list and the detail page show it. */
export type StatusKind = "waiting" | "queued" | "transcribing" | "complete" | "failed";

export function statusKind(fileStatus: number): StatusKind {
  switch (fileStatus) {
    case FileStatus.InQueue:
      return "queued";
    case FileStatus.Transcribing:
      return "transcribing";
    case FileStatus.Complete:
      return "complete";
    case FileStatus.Failed:
      return "failed";
    default:
      return "waiting";
  }
}

/** In queue or transcribing: 'transfering' in the spec, the rows whose progress is refreshed in place. */
export function isInProgress(fileStatus: number): boolean {
  return fileStatus === FileStatus.InQueue || fileStatus === FileStatus.Transcribing;
}

/** Finished one way or the other: progress polling stops (spec: every 2 s until 2 / -1). */
export function isSettled(fileStatus: number): boolean {
  return fileStatus === FileStatus.Complete || fileStatus === FileStatus.Failed || fileStatus === FileStatus.NotFound;
}

/** Never transcribed, or failed: what the transcribe action applies to. */
export function canTranscribe(fileStatus: number): boolean {
  return fileStatus === FileStatus.Waiting || fileStatus === FileStatus.Failed;
}

export function statusLabel(
  t: (key: string, options?: Record<string, unknown>) => string,
  fileStatus: number,
  progress = 0,
) {
  const kind = statusKind(fileStatus);
  return t(`status.${kind}`, { progress: Math.max(0, Math.min(100, Math.round(progress))) });
}

export const PROGRESS_POLL_MS = 2000;
