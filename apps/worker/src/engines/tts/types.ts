import type { TtsEngineName, TtsEngineProblem, TtsLanguage } from "@yuelu/contracts";

export type { TtsEngineName, TtsLanguage };

/** Mono 16-bit audio at the engine's own rate (every piece of one job has the same rate). */
export interface PcmAudio {
  sampleRate: number;
  samples: Int16Array;
}

export interface SynthesisOptions {
  language: TtsLanguage;
  /** the voice's parameters (library `params`, copied onto the task) */
  params: Record<string, unknown>;
  /** multiplier of the voice's own rate, 0.5–2 */
  speed: number;
  /** semitones; the engine applies what it can natively and says how much (`pitchApplied`) */
  pitch: number;
  signal?: AbortSignal;
  /** called with the number of pieces done so far, as they finish (in any order) */
  onProgress?: (done: number) => void;
}

export interface SynthesisResult {
  /** one audio per text, in order (an empty text gives an empty piece) */
  pieces: PcmAudio[];
  /** semitones of `pitch` the engine applied itself; the pipeline shifts the rest */
  pitchApplied: number;
  /** semitones the voice itself is shifted by (its `params.pitch` when the engine cannot do it natively) */
  voicePitch?: number;
  /** whether the voice's own pitch shift should keep its formants (natural timbre) or move them (another timbre) */
  keepFormants?: boolean;
}

/**
 * A text-to-speech engine: speaks a list of short texts (sentences) in one voice. Engines run what
 * they can in parallel (processes, requests) and report each finished piece.
 */
export interface TtsEngine {
  readonly name: TtsEngineName;
  readonly languages: readonly TtsLanguage[];
  /**
   * Whether `pitch` and `speed` are the synthesiser's own parameters over the whole range a personal voice
   * asks for (eSpeak's formant synthesis), so matching a voice needs no phase vocoder (voice/match.ts).
   */
  readonly pitchAndPaceNative?: boolean;
  /** Throws TtsEngineUnavailableError when the engine cannot speak `language` here. */
  ready(language: TtsLanguage): Promise<void>;
  synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult>;
}

/**
 * An engine that is not installed or not configured (no program, no voice data, no server URL, a
 * server refusing the key): code 70001, never retried. `problem` is what users are told
 * (contracts/tts-constants.ts, naming the package to install); the message, with details, goes to the log.
 */
export class TtsEngineUnavailableError extends Error {
  readonly code = 70001;
  constructor(
    readonly engine: string,
    message: string,
    readonly problem: TtsEngineProblem = "unknown",
  ) {
    super(message);
    this.name = "TtsEngineUnavailableError";
  }
}

/** What an engine is missing here, for the heartbeat and the log. */
export interface TtsProblemReport {
  problem: TtsEngineProblem;
  /** for the log: paths and commands (never shown to users) */
  detail: string;
}
