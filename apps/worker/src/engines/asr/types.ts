import type { EngineProblem } from "@yuelu/contracts";
import type { Pcm } from "../../audio/pcm.ts";
import type { SpeechRegion } from "../../audio/vad.ts";

/** The languages a transcription task may ask for ("auto": the engine detects it). */
export type AsrLanguage = "zh" | "en" | "auto";
export type AsrEngineName = "sherpa" | "whisper" | "moonshine" | "openai-compatible";

export interface AsrWord {
  startMs: number;
  endMs: number;
  text: string;
}

export interface AsrSegment {
  startMs: number;
  endMs: number;
  text: string;
  words?: AsrWord[];
  /**
   * How sure the engine was: the mean log-probability of the tokens it chose (≤ 0; closer to 0 is
   * surer). Engines that can tell give it; the front end uses it to keep the better of two hearings.
   */
  confidence?: number;
}

export interface AsrResult {
  segments: AsrSegment[];
  /** the language the engine heard (whisper/openai detect it for "auto"); absent when unknown */
  language?: string;
}

/**
 * 16 kHz mono PCM: float samples in [-1, 1], 16-bit samples, a Pcm (the front end's output is one: computed
 * window by window as the engine reads it), or the path of a media file (decoded with ffmpeg; a WAV at 16 kHz
 * mono is read as is).
 */
export type AudioInput = Float32Array | Int16Array | Pcm | string;

export interface TranscribeOptions {
  language: AsrLanguage;
  /** words the user wants recognised (names, jargon): prompt for whisper/openai, decoding bias for moonshine */
  hotWords?: readonly string[];
  /** 0..1, called as recognition advances */
  onProgress?: (fraction: number) => void;
  /**
   * Speech regions (ms) found by the caller's VAD. Only these are recognised; without them the
   * engine finds them itself. Segments always carry times of the whole input.
   */
  regions?: readonly SpeechRegion[];
  /**
   * Called with each segment as soon as it is final (before `transcribe` resolves), so the caller can
   * work on it — speaker features — while recognition goes on. Engines that only learn their segments
   * at the end may call it then, or not at all.
   */
  onSegment?: (segment: AsrSegment) => void;
  signal?: AbortSignal;
}

export interface AsrEngine {
  readonly name: AsrEngineName | string;
  /** which model it runs (a file name, a server's model id), where that can change: checkpoints name it */
  readonly model?: string;
  /** Throws AsrEngineUnavailableError when the engine cannot serve `language` here (checked before decoding). */
  ready?(language: AsrLanguage): Promise<void>;
  transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult>;
  /**
   * The language spoken (ISO code such as "zh", "en"), from a sample of the speech; undefined when the
   * engine cannot tell. Only engines that really identify languages have it ('auto' relies on them).
   */
  identifyLanguage?(
    audio: AudioInput,
    options: Pick<TranscribeOptions, "regions" | "signal">,
  ): Promise<string | undefined>;
}

/**
 * An engine that is not installed (no model, no binary, no server configured): code 70001, not
 * retried. `problem` is what users are told (contracts/engines.ts); the message, with its details,
 * goes to the worker's log.
 */
export class AsrEngineUnavailableError extends Error {
  readonly code = 70001;
  constructor(
    readonly engine: string,
    message: string,
    readonly problem: EngineProblem = "unknown",
  ) {
    super(message);
    this.name = "AsrEngineUnavailableError";
  }
}
