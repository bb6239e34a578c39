import { MAX_TRANSCRIBE_SECONDS, StatusCode, type StorageInfo } from "@yuelu/contracts";

/**
 * Whether a record may be transcribed now (spec §8): 50001 when it is over the 3-hour transcription limit;
 * given the user's quotas now (`storage`), 50002 when today's quota cannot fit what it would be charged and
 * 20001 when the time cards cannot. What it would be charged is its length less what its live captions
 * already paid (docs/live.md "Metering"). check_audio asks all three; a transcription request applies the
 * first itself and leaves the other two to the charge's conditional updates, which decide them atomically.
 */
export type TranscriptionRefusal =
  | typeof StatusCode.AudioTooLong
  | typeof StatusCode.DailyQuotaExceeded
  | typeof StatusCode.StorageQuotaExceeded;

export function transcriptionRefusal(
  record: { timeLen: number; liveCreditSeconds: number },
  storage?: Pick<StorageInfo, "timeUsedToday" | "timeLimitToday" | "timeUsed" | "timeLimit">,
): TranscriptionRefusal | undefined {
  if (record.timeLen > MAX_TRANSCRIBE_SECONDS) return StatusCode.AudioTooLong;
  if (!storage) return undefined;
  const seconds = chargedSeconds(record);
  if (storage.timeUsedToday + seconds > storage.timeLimitToday) return StatusCode.DailyQuotaExceeded;
  if (storage.timeLimit - storage.timeUsed < seconds) return StatusCode.StorageQuotaExceeded;
  return undefined;
}

/** What transcribing the record draws from the day's quota and the cards: its length less its live credit. */
export function chargedSeconds(record: { timeLen: number; liveCreditSeconds: number }): number {
  return Math.max(0, Math.ceil(record.timeLen) - record.liveCreditSeconds);
}
