import { resample } from "./resample.ts";
import { stretchAndShift } from "./rubberband.ts";
import type { VoiceProfile } from "./voice-profile.ts";

/**
 * "My voice" (issue 20): speech from a stock voice (the base) made to sound more like the user's sample
 * (the target) — its pitch moved to the target's median, its formants (vocal-tract size) part of the way
 * towards the target's, its pace towards the target's. Formant and pace corrections are clamped: beyond
 * them the voice sounds processed rather than different, and both measures carry some error.
 */

/**
 * How far formants and pace may move. Wider moves match a voice more closely but cost intelligibility:
 * eSpeak moved to a real speaker with formants ×0.8 and pace ×1.35 transcribed back at 29–42 % WER
 * (moonshine), within these limits at about 20 %, and festival's HTS voice at 3 % (bench/voice.mjs).
 */
export const FORMANT_SCALE_LIMITS = [0.9, 1.12] as const;
export const TIME_RATIO_LIMITS = [0.85, 1.18] as const;
/** pitch moves further than two octaves are not a voice match but a mistake in a profile */
const PITCH_SCALE_LIMITS = [0.25, 4] as const;

export interface MatchSettings {
  /** target median F0 / base median F0 */
  pitchScale: number;
  /** target formant position / base's, clamped to FORMANT_SCALE_LIMITS */
  formantScale: number;
  /** base syllable rate / target's (slower target → longer output), clamped to TIME_RATIO_LIMITS */
  timeRatio: number;
}

const clamp = (v: number, [lo, hi]: readonly [number, number], fallback = 1) =>
  Number.isFinite(v) && v > 0 ? Math.min(hi, Math.max(lo, v)) : fallback;

export function matchSettings(base: VoiceProfile, target: VoiceProfile): MatchSettings {
  return {
    pitchScale: clamp(target.medianHz / base.medianHz, PITCH_SCALE_LIMITS),
    formantScale: clamp(target.formantHz / base.formantHz, FORMANT_SCALE_LIMITS),
    timeRatio: clamp(base.syllablesPerSecond / target.syllablesPerSecond, TIME_RATIO_LIMITS),
  };
}

/** `samples` (speech in the base voice) at `sampleRate`, matched to `target`. */
export async function matchVoice(
  samples: Float32Array,
  sampleRate: number,
  base: VoiceProfile,
  target: VoiceProfile,
): Promise<Float32Array> {
  const settings = matchSettings(base, target);
  const [out] = await stretchAndShift([samples], sampleRate, settings);
  return out ?? new Float32Array(0);
}

/**
 * Matching for an engine whose pitch and pace are its own parameters (TtsEngine.pitchAndPaceNative: eSpeak):
 * the base voice is asked to speak `semitones` higher and `speed` times faster, and what it says is then
 * played `formantScale` times faster (scaleFrequencies) — like a tape — which moves pitch and formants
 * together and shortens it, landing pitch, formants and pace where matchSettings puts them with no phase
 * vocoder in between. Rubber Band's formant-preserving pass costs eSpeak's buzz-excited speech much of its
 * intelligibility (bench/README.md: an eSpeak woman's voice matched to JFK, 25 % WER through Rubber Band,
 * 13 % this way).
 */
export interface NativeMatch {
  /** semitones to ask the engine for, on top of the user's pitch */
  semitones: number;
  /** factor of the engine's pace, on top of the user's speed */
  speed: number;
  /** then every frequency × this (scaleFrequencies) */
  formantScale: number;
}

export function nativeMatch(base: VoiceProfile, target: VoiceProfile): NativeMatch {
  const { pitchScale, formantScale, timeRatio } = matchSettings(base, target);
  return {
    semitones: 12 * Math.log2(pitchScale / formantScale),
    speed: 1 / (timeRatio * formantScale),
    formantScale,
  };
}

/** `samples` played `scale` times faster: every frequency (pitch and formants) × scale, the length ÷ scale. */
export function scaleFrequencies(samples: Float32Array, sampleRate: number, scale: number): Float32Array {
  return Math.abs(scale - 1) < 1e-6 ? samples : resample(samples, sampleRate, sampleRate / scale);
}
