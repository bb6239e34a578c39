import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { wordTokens } from "@yuelu/contracts/constants";
import type { InferenceSession, Tensor } from "onnxruntime-node";
import { loadAudio, SAMPLE_RATE } from "../../audio/pcm.ts";
import { DEFAULT_PAD_MS, detectSpeech, groupRegions, spanAudio, spanOf } from "../../audio/vad.ts";
import { type AlignOptions, alignWords, type EncodedAudio } from "../../speech/align-words.ts";
import { IdleResource } from "../idle.ts";
import { splitAtSentences } from "./split-text.ts";
import {
  type AsrEngine,
  AsrEngineUnavailableError,
  type AsrLanguage,
  type AsrResult,
  type AsrSegment,
  type AudioInput,
  type TranscribeOptions,
} from "./types.ts";

/** Moonshine-tiny decoder shape (moonshine-js src/model.ts). */
const SHAPE = { numKVHeads: 8, headDim: 36 };
const START_TOKEN = 1;
const EOS_TOKEN = 2;
/** Upstream caps generation at 6 tokens per second of audio. */
const TOKENS_PER_SECOND = 6;
/** Hot-word bias added to the logits: the first token of a hot word, then each continuation. */
const BIAS_FIRST = 2.0;
const BIAS_NEXT = 4.0;
/**
 * Utterances shorter than this are decoded together with their neighbours (within 1.5 s), up to 28 s:
 * on JFK, white noise 10 dB went from 11 % to 2 % WER and fast, Opus, mp3, m4a and quiet from one or
 * two words wrong to none (bench/robustness.mjs).
 */
const CONTEXT_MS = 3000;

/**
 * Where Moonshine-tiny's ONNX weights are: vendor/moonshine/tiny-quantized, put there at `npm ci` by
 * scripts/fetch-moonshine.mjs (only the weights of the npm package @moonshine-ai/moonshine-js, checked:
 * its browser runtime is never installed). Null with the reason when they are not there.
 */
export function moonshineModelDir(): { dir: string | null; reason?: string } {
  // apps/worker/src/engines/asr (or dist/engines/asr) → the repository root
  const model = fileURLToPath(new URL("../../../../../vendor/moonshine/tiny-quantized/", import.meta.url));
  for (const f of ["encoder_model.onnx", "decoder_model_merged.onnx"]) {
    if (!existsSync(path.join(model, f))) {
      return {
        dir: null,
        reason: `Moonshine weights missing at ${path.join(model, f)} (run \`node scripts/fetch-moonshine.mjs\`)`,
      };
    }
  }
  return { dir: model };
}

function onnxRuntimeAvailable(): string | undefined {
  try {
    import.meta.resolve("onnxruntime-node");
    return undefined;
  } catch {
    return "the npm package onnxruntime-node is not installed (run `npm ci`)";
  }
}

/** Why the Moonshine engine cannot run here, or undefined when it can. */
export function moonshineMissing(): string | undefined {
  return onnxRuntimeAvailable() ?? moonshineModelDir().reason;
}

interface Tokenizer {
  encode(text: string, addBos?: boolean, addPrecedingSpace?: boolean): number[];
  decode(ids: number[], addBos?: boolean, addPrecedingSpace?: boolean): string;
}

interface Loaded {
  ort: typeof import("onnxruntime-node");
  encoder: InferenceSession;
  decoder: InferenceSession;
  numLayers: number;
  tokenizer: Tokenizer;
}

/**
 * The model, one per thread count in a process (the batch engine and live captions share it): loaded
 * by the first job, let go after ENGINE_IDLE_SECONDS unused (engines/idle.ts).
 */
const models = new Map<number, IdleResource<Loaded>>();
function moonshineModel(threads: number): IdleResource<Loaded> {
  let model = models.get(threads);
  if (!model) {
    model = new IdleResource(
      `moonshine (${threads} thread${threads === 1 ? "" : "s"})`,
      () => loadModel(threads),
      unloadModel,
    );
    models.set(threads, model);
  }
  return model;
}

async function loadModel(threads: number): Promise<Loaded> {
  const missing = moonshineMissing();
  if (missing)
    throw new AsrEngineUnavailableError(
      "moonshine",
      `Moonshine (English ASR) is not available: ${missing}`,
      "model-missing",
    );
  const dir = moonshineModelDir().dir as string;
  const ort = await import("onnxruntime-node");
  // One thread unless ASR_THREADS says otherwise: the tiny model's ops are too small to split —
  // on 2 cores, 2 threads spent 2.2× the CPU for a 15 % slower result — and the other cores are
  // better used by the speaker features (BackgroundVoicePrints), the API and the database.
  const opts: InferenceSession.SessionOptions = {
    executionProviders: ["cpu"],
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
  };
  const encoder = await ort.InferenceSession.create(path.join(dir, "encoder_model.onnx"), opts);
  const decoder = await ort.InferenceSession.create(path.join(dir, "decoder_model_merged.onnx"), opts);
  const numLayers = decoder.inputNames.filter((n) => /^past_key_values\.\d+\.decoder\.key$/.test(n)).length;
  const tokenizer = (await import("llama-tokenizer-js")).default as unknown as Tokenizer;
  return { ort, encoder, decoder, numLayers, tokenizer };
}

async function unloadModel(m: Loaded): Promise<void> {
  await Promise.all([m.encoder.release(), m.decoder.release()]);
}

/**
 * Moonshine-tiny (English) on onnxruntime-node: offline, weights from vendor/moonshine. Speech is cut
 * at pauses into chunks of at most ~28 s; each chunk is encoded once and decoded greedily with a
 * KV cache. Hot words bias the decoder toward their token sequences.
 */
export class MoonshineEngine implements AsrEngine {
  readonly name = "moonshine";
  private readonly resource: IdleResource<Loaded>;

  constructor(options: { threads?: number } = {}) {
    this.resource = moonshineModel(options.threads || 1);
  }

  async ready(language: AsrLanguage): Promise<void> {
    if (language === "zh") {
      throw new AsrEngineUnavailableError(
        "moonshine",
        "Moonshine recognises English only: set ASR_ENGINE_ZH=whisper (with a model) or openai-compatible for Chinese",
        "english-only",
      );
    }
    await this.resource.warm();
  }

  async transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    await this.ready(options.language);
    return this.resource.use((m) => this.transcribeWith(m, audio, options));
  }

  private async transcribeWith(m: Loaded, audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    // Utterances: pieces under 1 s join a neighbour.
    const utterances = groupRegions(regions, { maxMs: 28_000, minMs: 1000, joinGapMs: 0, maxGapMs: 1500 });
    // Decoded with context: utterances under CONTEXT_MS are heard together with their neighbours (the
    // tiny model mishears short ones alone); the text is then cut back into them at sentence ends, and
    // utterances with no sentence end between them become one segment (split-text.ts).
    const spans = utterances.map(spanOf);
    const stretches = groupRegions(spans, { maxMs: 28_000, minMs: CONTEXT_MS, joinGapMs: 0, maxGapMs: 1500 });
    const bias = hotWordTokens(m.tokenizer, options.hotWords ?? []);
    const total = spans.reduce((s, c) => s + c.endMs - c.startMs, 0) || 1;
    let done = 0;
    let next = 0;
    const segments: AsrSegment[] = [];
    for (const stretch of stretches) {
      options.signal?.throwIfAborted();
      const parts = utterances.slice(next, next + stretch.length);
      next += stretch.length;
      const heard = spanAudio(pcm, stretch);
      const { text, confidence, encoded } = await this.recognise(m, heard, bias);
      // the decoder gives no word times: its words are aligned to the audio (speech/align-words.ts), compared
      // with their reference by this encoder's states
      const words = await timeStretch(heard, text, spanOf(stretch).startMs, options.signal, {
        encoder: (audio) => encodeWith(m, audio),
        ...(encoded ? { encoded } : {}),
      });
      // speaking time: the regions without the silence the VAD padded them with
      const spoken = parts.map((part) =>
        part.reduce((sum, r) => sum + Math.max(0, r.endMs - r.startMs - 2 * DEFAULT_PAD_MS), 0),
      );
      for (const piece of splitAtSentences(text, spoken)) {
        const startMs = spanOf(parts[piece.first]!).startMs;
        const endMs = spanOf(parts[piece.last]!).endMs;
        const own = words.splice(0, wordTokens(piece.text).length);
        const segment: AsrSegment = {
          startMs,
          endMs,
          text: piece.text,
          confidence,
          ...(own.length ? { words: own } : {}),
        };
        segments.push(segment);
        options.onSegment?.(segment);
      }
      for (const part of parts) done += spanOf(part).endMs - spanOf(part).startMs;
      options.onProgress?.(Math.min(1, done / total));
    }
    return { segments, language: "en" };
  }

  /**
   * The encoder's states of 16 kHz audio (~41.5 frames a second, 288 numbers each): what the word aligner
   * compares a recording and its reference by (speech/align-words.ts).
   */
  async encode(audio: Float32Array): Promise<EncodedAudio> {
    return this.resource.use((m) => encodeWith(m, audio));
  }

  /**
   * One window of 16 kHz audio, as it is (no VAD): the streaming seat of live captions
   * (apps/worker/src/live/), which cuts its own windows. Windows should stay under ~28 s.
   */
  async decodeWindow(audio: Float32Array): Promise<{ text: string; confidence: number }> {
    return this.resource.use((m) => this.recognise(m, audio, []));
  }

  /** Greedy decoding of one chunk; `confidence` is the mean log-probability of the chosen tokens (EOS included). */
  private async recognise(
    m: Loaded,
    audio: Float32Array,
    bias: number[][],
  ): Promise<{ text: string; confidence: number; encoded?: EncodedAudio }> {
    const { ort, encoder, decoder, numLayers, tokenizer } = m;
    if (audio.length < SAMPLE_RATE / 10) return { text: "", confidence: 0 };
    const encoded = await encoder.run({ input_values: new ort.Tensor("float32", audio, [1, audio.length]) });
    const hidden = encoded.last_hidden_state!;
    const states = { states: hidden.data as Float32Array, frames: hidden.dims[1]!, dim: hidden.dims[2]! };
    const past: Record<string, Tensor> = {};
    for (let i = 0; i < numLayers; i++) {
      for (const a of ["decoder", "encoder"]) {
        for (const b of ["key", "value"]) {
          past[`past_key_values.${i}.${a}.${b}`] = new ort.Tensor("float32", new Float32Array(0), [
            0,
            SHAPE.numKVHeads,
            1,
            SHAPE.headDim,
          ]);
        }
      }
    }
    const maxLen = Math.max(4, Math.ceil((audio.length / SAMPLE_RATE) * TOKENS_PER_SECOND));
    const tokens = [START_TOKEN];
    let input = [START_TOKEN];
    let logProb = 0;
    let chosen = 0;
    for (let step = 0; step < maxLen; step++) {
      const feeds: Record<string, Tensor> = {
        input_ids: new ort.Tensor("int64", BigInt64Array.from(input.map(BigInt)), [1, input.length]),
        encoder_hidden_states: hidden,
        use_cache_branch: new ort.Tensor("bool", [step > 0], [1]),
        ...past,
      };
      const out = await decoder.run(feeds);
      const logitsTensor = out.logits!;
      const logits = logitsTensor.data as Float32Array;
      const vocab = logitsTensor.dims[logitsTensor.dims.length - 1]!;
      const last = logits.subarray(logits.length - vocab);
      const next = argMaxBiased(last, tokens, bias);
      logProb += logSoftmaxAt(last, next);
      chosen++;
      if (next === EOS_TOKEN) break;
      tokens.push(next);
      const loop = loopLength(tokens);
      if (loop > 0) {
        tokens.splice(tokens.length - (LOOP_REPEATS - 1) * loop);
        break;
      }
      input = [next];
      for (const name of Object.keys(out)) {
        if (!name.startsWith("present.")) continue;
        // The encoder (cross-attention) cache is computed once, on the first step.
        if (step > 0 && name.includes(".encoder.")) continue;
        past[name.replace("present.", "past_key_values.")] = out[name]!;
      }
    }
    const text = tokenizer.decode(tokens, true, true).replace(/\s+/g, " ").trim();
    return { text, confidence: chosen ? logProb / chosen : 0, encoded: states };
  }
}

/** The encoder's states of `audio` (at least 0.1 s: shorter audio is padded with silence). */
async function encodeWith(m: Loaded, audio: Float32Array): Promise<EncodedAudio> {
  const least = SAMPLE_RATE / 10;
  const input = audio.length >= least ? audio : Float32Array.from({ length: least }, (_, i) => audio[i] ?? 0);
  const out = await m.encoder.run({ input_values: new m.ort.Tensor("float32", input, [1, input.length]) });
  const hidden = out.last_hidden_state!;
  return { states: hidden.data as Float32Array, frames: hidden.dims[1]!, dim: hidden.dims[2]! };
}

/**
 * The words of a stretch's text with their times in the recording (`offsetMs`: where the stretch
 * begins), aligned to its audio; none when nothing could be aligned.
 */
async function timeStretch(
  audio: Float32Array,
  text: string,
  offsetMs: number,
  signal: AbortSignal | undefined,
  options: AlignOptions,
) {
  const tokens = wordTokens(text);
  const times = tokens.length ? await alignWords(audio, tokens, "en", signal, options) : undefined;
  if (!times) return [];
  return tokens.map((t, i) => ({
    text: t,
    startMs: offsetMs + times[i]!.startMs,
    endMs: offsetMs + times[i]!.endMs,
  }));
}

/** log softmax(logits)[index], computed stably. */
function logSoftmaxAt(logits: Float32Array, index: number): number {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  return logits[index]! - max - Math.log(sum);
}

/** Token sequences of the hot words (with and without a leading space), for decoding bias. */
function hotWordTokens(tokenizer: Tokenizer, hotWords: readonly string[]): number[][] {
  const out: number[][] = [];
  for (const raw of hotWords) {
    const word = raw.trim();
    if (!word || !/[A-Za-z0-9]/.test(word)) continue;
    out.push(tokenizer.encode(word, false, true));
  }
  return out.filter((t) => t.length > 0);
}

function argMaxBiased(logits: Float32Array, tokens: number[], bias: number[][]): number {
  let best = 0;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < logits.length; i++) {
    if (logits[i]! > bestValue) {
      bestValue = logits[i]!;
      best = i;
    }
  }
  if (bias.length === 0) return best;
  // Shallow biasing: boost the token that continues (or starts) a hot word, if it is competitive.
  const boosted = new Map<number, number>();
  for (const seq of bias) {
    for (let k = Math.min(seq.length - 1, tokens.length - 1); k >= 0; k--) {
      let match = true;
      for (let j = 0; j < k; j++) {
        if (tokens[tokens.length - k + j] !== seq[j]) {
          match = false;
          break;
        }
      }
      if (match) {
        const add = k === 0 ? BIAS_FIRST : BIAS_NEXT;
        const token = seq[k]!;
        boosted.set(token, Math.max(boosted.get(token) ?? 0, add));
        break;
      }
    }
  }
  for (const [token, add] of boosted) {
    if (logits[token]! + add > bestValue) {
      bestValue = logits[token]! + add;
      best = token;
    }
  }
  return best;
}

const LOOP_REPEATS = 4;

/** Greedy decoding can loop ("the the the…"): the n-gram length that just repeated 4 times, or 0. */
function loopLength(tokens: number[]): number {
  for (let n = 1; n <= 8; n++) {
    const reps = LOOP_REPEATS;
    if (tokens.length < n * reps + 1) continue;
    let looping = true;
    for (let r = 1; r < reps && looping; r++) {
      for (let j = 0; j < n; j++) {
        if (tokens[tokens.length - 1 - j] !== tokens[tokens.length - 1 - j - r * n]) {
          looping = false;
          break;
        }
      }
    }
    if (looping) return n;
  }
  return 0;
}
