/** Spec §5 speaker rename and §9: Han characters, English letters and digits only; 10 at most. */
export const SPEAKER_NAME_MAX = 10;
export const SPEAKER_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9]+$/u;

export type SpeakerNameCheck =
  | { kind: "close" }
  | { kind: "invalid" }
  | { kind: "tooLong" }
  | { kind: "ok"; name: string };

/** Empty, or unchanged: just close. Otherwise only Han/English/digits, no spaces or symbols, ≤ 10. */
export function checkSpeakerName(input: string, oldName: string): SpeakerNameCheck {
  if (input.trim() === "" || input === oldName) return { kind: "close" };
  if (!SPEAKER_NAME_PATTERN.test(input)) return { kind: "invalid" };
  if ([...input].length > SPEAKER_NAME_MAX) return { kind: "tooLong" };
  return { kind: "ok", name: input };
}
