import {
  type EncodedSpeech,
  encodeSpeech,
  joinPieces,
  normaliseLoudness,
  type PitchShift,
  shiftPitch,
} from "../audio/speech-audio.ts";
import type { PcmAudio, TtsEngine, TtsLanguage } from "../engines/tts/types.ts";
import { speechPieces } from "./tts-text.ts";

/**
 * Text → a playable file (docs/tts.md "What the worker does"): the text normalised and cut into
 * sentences, each spoken by the engine (in parallel where it can), joined with natural pauses, the
 * pitch shifted where the engine could not, the loudness levelled (× volume), encoded by ffmpeg.
 * The same pipeline makes synthesis tasks and the library's try_listen samples.
 */

export interface RenderRequest {
  text: string;
  language: TtsLanguage;
  params: Record<string, unknown>;
  speed: number;
  pitch: number;
  volume: number;
  format: "mp3" | "wav";
}

export interface RenderedSpeech extends EncodedSpeech {
  pieces: number;
  /** wall time per stage (ms): synthesisMs, joinMs, encodeMs */
  stages: Record<string, number>;
}

/** The text holds nothing to read aloud (punctuation, emoji): a permanent failure. */
export class NothingToSayError extends Error {
  constructor() {
    super("the text holds nothing that can be read aloud");
    this.name = "NothingToSayError";
  }
}

/** The engine answered silence for speakable text: never stored (ARCHITECTURE §7). */
export class SilentSpeechError extends Error {
  constructor(engine: string) {
    super(`${engine} produced silence for text that should be spoken`);
    this.name = "SilentSpeechError";
  }
}

/** Peak below which a track counts as silent (-50 dBFS). */
const SILENT_PEAK = 104;

export async function renderSpeech(
  engine: TtsEngine,
  request: RenderRequest,
  options: {
    signal?: AbortSignal;
    onProgress?: (fraction: number) => void;
    /** a last change of the voice before loudness and encoding (a personal voice's matching) */
    transform?: (track: PcmAudio) => Promise<PcmAudio>;
  } = {},
): Promise<RenderedSpeech> {
  const pieces = speechPieces(request.text, request.language);
  if (pieces.length === 0) throw new NothingToSayError();
  const stages: Record<string, number> = {};
  let mark = performance.now();
  const stage = (name: string) => {
    stages[name] = Math.round(performance.now() - mark);
    mark = performance.now();
  };
  options.onProgress?.(0.02);

  const result = await engine.synthesize(
    pieces.map((p) => p.text),
    {
      language: request.language,
      params: request.params,
      speed: request.speed,
      pitch: request.pitch,
      signal: options.signal,
      onProgress: (done) => options.onProgress?.(0.02 + 0.83 * (done / pieces.length)),
    },
  );
  stage("synthesisMs");

  let track = joinPieces(
    result.pieces,
    pieces.map((p) => p.pauseMs),
  );
  let peak = 0;
  for (let i = 0; i < track.samples.length; i++) peak = Math.max(peak, Math.abs(track.samples[i]!));
  if (peak < SILENT_PEAK) throw new SilentSpeechError(engine.name);
  const shifts: PitchShift[] = [];
  if (result.voicePitch) shifts.push({ semitones: result.voicePitch, keepFormants: result.keepFormants ?? true });
  if (Math.abs(request.pitch - result.pitchApplied) >= 0.01) {
    shifts.push({ semitones: request.pitch - result.pitchApplied, keepFormants: true });
  }
  track = await shiftPitch(track, shifts, options.signal);
  if (options.transform) track = await options.transform(track);
  track = normaliseLoudness(track, request.volume).audio;
  stage("joinMs");
  options.onProgress?.(0.9);

  const encoded = await encodeSpeech(track, request.format, options.signal);
  stage("encodeMs");
  return { ...encoded, pieces: pieces.length, stages };
}
