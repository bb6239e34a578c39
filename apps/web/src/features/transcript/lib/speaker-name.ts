import { SPEAKER_NAME_MAX, SPEAKER_NAME_PATTERN } from "@yuelu/contracts/constants";

export type SpeakerNameCheck =
  | { kind: "close" }
  | { kind: "invalid" }
  | { kind: "tooLong" }
  | { kind: "ok"; name: string };

/**
 * Spec §5 speaker rename (the contracts' rule): empty, or unchanged: just close. Otherwise only
 * Han/English/digits, no spaces or symbols, ≤ 10.
 */
export function checkSpeakerName(input: string, oldName: string): SpeakerNameCheck {
  if (input.trim() === "" || input === oldName) return { kind: "close" };
  if (!SPEAKER_NAME_PATTERN.test(input)) return { kind: "invalid" };
  if ([...input].length > SPEAKER_NAME_MAX) return { kind: "tooLong" };
  return { kind: "ok", name: input };
}
