import type { TtsEngine, TtsLanguage } from "../tts/types.ts";
import { matchVoice, nativeMatch, scaleFrequencies } from "./match.ts";
import { resample } from "./resample.ts";
import { stretchAndShift } from "./rubberband.ts";
import type { VoiceProfile } from "./voice-profile.ts";

/** What a library voice is to its engine. */
export interface SpokenVoice {
  language: TtsLanguage;
  params: Record<string, unknown>;
}

/**
 * Speech of `text` by `engine` in `voice` as floats at `rate`, `pitch` semitones higher and `speed` times
 * faster where asked; what the engine cannot do itself (a festival voice's own pitch, pitch beyond eSpeak's
 * range) is shifted after, formants kept as the voice asks.
 */
export async function speakAsFloats(
  engine: TtsEngine,
  voice: SpokenVoice,
  text: string,
  rate: number,
  { pitch = 0, speed = 1 }: { pitch?: number; speed?: number } = {},
): Promise<Float32Array> {
  await engine.ready(voice.language);
  const result = await engine.synthesize([text], {
    language: voice.language,
    params: voice.params,
    speed,
    pitch,
    signal: AbortSignal.timeout(120_000),
  });
  const piece = result.pieces[0];
  if (!piece || piece.samples.length === 0) return new Float32Array(0);
  let samples: Float32Array = Float32Array.from(piece.samples, (v) => v / 32768);
  const shift = async (semitones: number, preserveFormants: boolean) => {
    const [shifted] = await stretchAndShift([samples], piece.sampleRate, {
      pitchScale: 2 ** (semitones / 12),
      preserveFormants,
    });
    samples = shifted ?? samples;
  };
  if (result.voicePitch) await shift(result.voicePitch, result.keepFormants ?? true);
  if (Math.abs(pitch - result.pitchApplied) >= 0.01) await shift(pitch - result.pitchApplied, true);
  return resample(samples, piece.sampleRate, rate);
}

/**
 * `text` by a library voice matched to `target` (a personal voice's preview, the bench), the way synthesis
 * tasks in that voice are made (jobs/synthesize-speech.ts): through the engine's own pitch and pace where it
 * has them (nativeMatch), else through Rubber Band (matchVoice).
 */
export async function speakMatchedAsFloats(
  engine: TtsEngine,
  voice: SpokenVoice,
  text: string,
  rate: number,
  base: VoiceProfile,
  target: VoiceProfile,
): Promise<Float32Array> {
  if (engine.pitchAndPaceNative) {
    const plan = nativeMatch(base, target);
    const speech = await speakAsFloats(engine, voice, text, rate, { pitch: plan.semitones, speed: plan.speed });
    return scaleFrequencies(speech, rate, plan.formantScale);
  }
  return matchVoice(await speakAsFloats(engine, voice, text, rate), rate, base, target);
}
