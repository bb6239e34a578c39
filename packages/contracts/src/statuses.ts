/** Status values the API answers (zod-free, for `@yuelu/contracts/constants`). */

/**
 * Spec §4 audio file / transcription task statuses. A record is Waiting until its first
 * transcription; a task goes InQueue → Transcribing → Complete, or to Failed (refunded).
 * NotFound answers get_progress for an id that is not the caller's record.
 */
export const FileStatus = { Waiting: 0, Transcribing: 1, Complete: 2, InQueue: 3, Failed: -1, NotFound: -10 } as const;
export type FileStatus = (typeof FileStatus)[keyof typeof FileStatus];

/** signCheck of a sign result (spec §4 Check-in): 1 success, 2 already signed today. */
export const SignCheck = { Success: 1, AlreadySigned: 2 } as const;

/** Epoch seconds, the spec's server timestamp unit (0 for none). */
export function toEpochSeconds(date: Date | null | undefined): number {
  return date ? Math.floor(date.getTime() / 1000) : 0;
}
