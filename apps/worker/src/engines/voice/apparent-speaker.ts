import { measureFormants } from "./formants.ts";
import type { PitchTrack } from "./pitch.ts";

/**
 * Who a voice sample sounds like: a man, a woman or a child (issue 43) — what picks the library voices a
 * personal voice may be based on (jobs/voice.ts likelyBases). Pitch alone cannot tell: JFK's speech in the
 * test clip has a median F0 of 255 Hz (he is shouting), a woman's register, and a pitch-only rule based his
 * voice on 朵朵, a girl's. The vocal tract can: its length sets how far apart the formants lie (formants.ts),
 * whatever the pitch. So the formant spacing ΔF decides, and pitch only where ΔF is in between or missing.
 *
 * Measured (ΔF with formants up to 5 kHz / 5.5 kHz; docs/voice.md "Whose voice a sample is"):
 * - men: JFK 958 (F0 255), JFK pitched ×1.4 with formants kept 1 041 (F0 349), a LibriVox reader 1 003–1 070
 *   (F0 85–110), another man's read digits 973–1 016, eSpeak's men 950–1 000;
 * - women: a woman's recorded channel names 1 125–1 226 (F0 172–214), festival's HTS voice (a woman's
 *   recordings) 1 194–1 213, eSpeak's women 1 134–1 204, JFK played ×1.25 faster (pitch and formants up
 *   25 %, about the step from a man's tract to a woman's) 1 194;
 * - children: eSpeak's girls 1 282–1 300 / 1 315–1 317 (F0 272–290), JFK played ×1.45 faster 1 142 / 1 367 (F0 371).
 */

export type ApparentSex = "male" | "female";
export type ApparentAge = "adult" | "child";

/** (a type, not an interface: it is stored in a profile's JSON column) */
export type ApparentSpeaker = {
  sex: ApparentSex;
  age: ApparentAge;
  /** ΔF with formants up to 5 kHz (Hz); absent when the sample's formants could not be measured */
  formantSpacingHz?: number;
  /** what decided: the formant spacing, or the pitch where the spacing was in between or missing */
  by: "formants" | "pitch";
};

export const APPARENT_RULES = {
  /** ΔF (5 kHz ceiling) under this: a man's vocal tract, whatever the pitch */
  maleBelowHz: 1070,
  /** ΔF (5 kHz ceiling) from this: a woman's or a child's; in between, the pitch decides */
  femaleFromHz: 1130,
  /** in between (or without formants): a median F0 under this is a man's */
  malePitchBelowHz: 165,
  /** a child: ΔF (5.5 kHz ceiling, where a child's F4 still fits) from this, and a median F0 from childPitchFromHz */
  childSpacingFromHz: 1280,
  childPitchFromHz: 240,
  /** without formants, a median F0 from this is a child's */
  childPitchAloneFromHz: 300,
} as const;

/** The apparent speaker from the measures (exported for the tests' edge cases). */
export function judgeSpeaker(
  medianHz: number,
  spacingHz: number | null,
  wideSpacingHz: number | null,
): ApparentSpeaker {
  const rules = APPARENT_RULES;
  if (spacingHz === null) {
    const sex = medianHz < rules.malePitchBelowHz ? "male" : "female";
    const age = sex === "female" && medianHz >= rules.childPitchAloneFromHz ? "child" : "adult";
    return { sex, age, by: "pitch" };
  }
  const formantSpacingHz = Math.round(spacingHz);
  if (spacingHz < rules.maleBelowHz) return { sex: "male", age: "adult", formantSpacingHz, by: "formants" };
  const between = spacingHz < rules.femaleFromHz;
  if (between && medianHz < rules.malePitchBelowHz) return { sex: "male", age: "adult", formantSpacingHz, by: "pitch" };
  const child = (wideSpacingHz ?? spacingHz) >= rules.childSpacingFromHz && medianHz >= rules.childPitchFromHz;
  return { sex: "female", age: child ? "child" : "adult", formantSpacingHz, by: between ? "pitch" : "formants" };
}

/** The apparent speaker of 16 kHz-or-so speech `audio` with its pitch track (10 ms hops) and median F0. */
export function apparentSpeaker(
  audio: Float32Array,
  sampleRate: number,
  track: PitchTrack,
  medianHz: number,
): ApparentSpeaker {
  const spacing = measureFormants(audio, sampleRate, track, 5000)?.spacingHz ?? null;
  // a child's F4 lies near 5 kHz: the wider ceiling is asked only of a voice that may be one
  const wide =
    spacing !== null && spacing >= APPARENT_RULES.femaleFromHz
      ? (measureFormants(audio, sampleRate, track, 5500)?.spacingHz ?? null)
      : null;
  return judgeSpeaker(medianHz, spacing, wide);
}
