import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { loadAudio, type Pcm, SAMPLE_RATE } from "../../audio/pcm.ts";
import { detectSpeech, groupRegions, type SpeechRegion, spanAudio, spanOf } from "../../audio/vad.ts";
import { IdleResource } from "../idle.ts";
import { OnnxFileError, readOnnxMetadata } from "./onnx-metadata.ts";
import {
  type AsrEngine,
  AsrEngineUnavailableError,
  type AsrLanguage,
  type AsrResult,
  type AsrSegment,
  type AsrWord,
  type AudioInput,
  type TranscribeOptions,
} from "./types.ts";

/**
 * `sherpa`: k2-fsa's sherpa-onnx (the `sherpa-onnx-node` package: prebuilt, no build step) running
 * SenseVoice or Paraformer models offline on the CPU. SenseVoice recognises Chinese, English,
 * Japanese, Korean and Cantonese, identifies the language itself, and writes punctuation and numbers
 * (inverse text normalisation); Paraformer is a strong Mandarin model. Speech is cut at pauses into
 * utterances of at most ~28 s, each decoded on sherpa's own threads (decodeAsync: the event loop
 * stays free). Hot words: sherpa biases only transducer models, so these two do not take them.
 */

/** Utterances of at most ~28 s, cut at pauses (what these non-streaming models decode best). */
const CHUNKING = { maxMs: 28_000, minMs: 1000, joinGapMs: 0, maxGapMs: 1500 };
/** How much speech 'auto' listens to before it names the language. */
const LANGUAGE_SAMPLE_MS = 30_000;

export type SherpaModelKind = "sense-voice" | "paraformer-zh";

export interface SherpaOptions {
  kind: SherpaModelKind;
  /** the folder holding model.int8.onnx and tokens.txt */
  modelDir: string;
  /** 0 = 2 threads */
  threads?: number;
}

/** Its files in `modelDir`. */
export function sherpaFiles(modelDir: string) {
  return { model: path.join(modelDir, "model.int8.onnx"), tokens: path.join(modelDir, "tokens.txt") };
}

/** Why sherpa cannot run here — the problem users are told, the details for the log — or undefined. */
export function sherpaMissing(
  options: Pick<SherpaOptions, "modelDir" | "kind">,
): { problem: "binary-missing" | "model-missing" | "model-invalid"; detail: string } | undefined {
  if (!loadAddon()) {
    return {
      problem: "binary-missing",
      detail:
        "the sherpa-onnx-node package (and its prebuilt sherpa-onnx-linux-x64 addon) is not installed: run `npm ci`",
    };
  }
  const files = sherpaFiles(options.modelDir);
  const absent = [files.model, files.tokens].filter((f) => !existsSync(f));
  if (absent.length) {
    return {
      problem: "model-missing",
      detail: `the ${options.kind} model is not at ${options.modelDir} (missing ${absent.map((f) => path.basename(f)).join(", ")}): run \`npm run models:fetch -- ${options.kind}\` or let the worker fetch it (ASR_AUTO_FETCH)`,
    };
  }
  const invalid = invalidModels.get(files.model);
  if (invalid && invalid.version === versionOf(files)) return { problem: "model-invalid", detail: invalid.detail };
  return undefined;
}

/** The files' identity on disk: a model fetched again (moved into place) is another version. */
function versionOf(files: { model: string; tokens: string }): string {
  try {
    return [files.model, files.tokens].map((f) => `${statSync(f).mtimeMs}:${statSync(f).size}`).join("|");
  } catch {
    return "absent";
  }
}

/** Models found broken, by path, until their files change (reported in the heartbeat meanwhile). */
const invalidModels = new Map<string, { version: string; detail: string }>();

/** What sherpa-onnx reads from a model's metadata (offline-sense-voice-model.cc, offline-paraformer-model.cc). */
const REQUIRED_METADATA: Record<SherpaModelKind, string[]> = {
  "sense-voice": [
    "vocab_size",
    "lfr_window_size",
    "lfr_window_shift",
    "normalize_samples",
    "with_itn",
    "without_itn",
    "lang_auto",
    "lang_zh",
    "lang_en",
    "lang_ja",
    "lang_ko",
    "lang_yue",
    "neg_mean",
    "inv_stddev",
  ],
  "paraformer-zh": ["vocab_size", "lfr_window_size", "lfr_window_shift", "neg_mean", "inv_stddev"],
};
const INTEGER_METADATA = /^(vocab_size|lfr_window_\w+|normalize_samples|with_itn|without_itn|lang_\w+|blank_id)$/;

/**
 * Checks a model's files before sherpa-onnx opens them, because sherpa-onnx ends the whole process
 * when a metadata key it reads is missing, and a damaged file is better named than half-loaded: the
 * ONNX container whole, every metadata key the loader reads (integers where integers are read, CMVN
 * vectors of the right length), and a token table matching the vocabulary (with `</s>`, where a
 * Paraformer stops). Throws a description of the first problem.
 */
export async function checkSherpaModel(kind: SherpaModelKind, files: { model: string; tokens: string }): Promise<void> {
  let metadata: Map<string, string>;
  try {
    metadata = await readOnnxMetadata(files.model);
  } catch (error) {
    if (error instanceof OnnxFileError) throw new Error(`${path.basename(files.model)}: ${error.message}`);
    throw error;
  }
  const absent = REQUIRED_METADATA[kind].filter((key) => !metadata.has(key));
  if (absent.length) {
    throw new Error(
      `${path.basename(files.model)} is not a ${kind} model for sherpa-onnx: no ${absent.join(", ")} in its metadata`,
    );
  }
  for (const [key, value] of metadata) {
    if (INTEGER_METADATA.test(key) && !/^-?\d+$/.test(value.trim())) {
      throw new Error(`${path.basename(files.model)}: metadata ${key}=${value.slice(0, 40)} is not an integer`);
    }
  }
  const features = 80 * Number(metadata.get("lfr_window_size"));
  for (const key of ["neg_mean", "inv_stddev"]) {
    const values = (metadata.get(key) ?? "").split(",").map(Number);
    if (values.length !== features || values.some((v) => !Number.isFinite(v))) {
      throw new Error(`${path.basename(files.model)}: metadata ${key} holds ${values.length} numbers, not ${features}`);
    }
  }
  const lines = (await readFile(files.tokens, "utf8")).split("\n").filter((l) => l.trim());
  const vocab = Number(metadata.get("vocab_size"));
  if (lines.length !== vocab) {
    throw new Error(`${path.basename(files.tokens)} lists ${lines.length} tokens; the model's vocabulary has ${vocab}`);
  }
  if (kind === "paraformer-zh" && !lines.some((l) => l.trim().split(/\s+/)[0] === "</s>")) {
    throw new Error(`${path.basename(files.tokens)} has no </s> token (a Paraformer stops there)`);
  }
}

interface SherpaResult {
  text: string;
  lang?: string;
  tokens?: string[];
  timestamps?: number[];
}
interface Recognizer {
  createStream(): { acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void };
  decodeAsync(stream: unknown): Promise<SherpaResult>;
}
interface SherpaAddon {
  OfflineRecognizer: { createAsync(config: unknown): Promise<Recognizer> };
}

let addon: SherpaAddon | null | undefined;
/** The native addon, or null when it cannot be loaded on this machine. */
function loadAddon(): SherpaAddon | null {
  if (addon === undefined) {
    try {
      addon = createRequire(import.meta.url)("sherpa-onnx-node") as SherpaAddon;
    } catch {
      addon = null;
    }
  }
  return addon;
}

/** SenseVoice's language tag ("<|zh|>", "<|en|>", "<|yue|>") as a language code. */
export function senseVoiceLanguage(tag: string | undefined): string | undefined {
  const code = tag?.replace(/[<|>]/g, "").trim().toLowerCase();
  if (!code || code === "nospeech" || code === "unk") return undefined;
  return code === "yue" ? "zh" : code;
}

export class SherpaEngine implements AsrEngine {
  readonly name = "sherpa";
  /** the recognizer, with the model files' version it was made from (engines/idle.ts: let go when idle) */
  private readonly resource: IdleResource<{ recognizer: Recognizer; version: string }>;
  private loadedVersion = "";

  constructor(private readonly options: SherpaOptions) {
    this.resource = new IdleResource(`sherpa (${options.kind})`, () => this.load());
  }

  /**
   * Runs `fn` with the recognizer of the model on disk now: made by the first job, again when the
   * model's files change (a model fetched anew is moved into place: the next job uses it, no restart
   * needed), and let go after ENGINE_IDLE_SECONDS unused.
   */
  private async withRecognizer<R>(fn: (recognizer: Recognizer) => Promise<R>): Promise<R> {
    // a model fetched anew replaces the loaded one (unless another job is using that one: then the next job)
    if (this.resource.loaded && this.loadedVersion !== versionOf(sherpaFiles(this.options.modelDir))) {
      await this.resource.release();
    }
    return this.resource.use((m) => fn(m.recognizer));
  }

  private async load(): Promise<{ recognizer: Recognizer; version: string }> {
    const files = sherpaFiles(this.options.modelDir);
    const version = versionOf(files);
    this.loadedVersion = version;
    const missing = sherpaMissing(this.options);
    if (missing) throw new AsrEngineUnavailableError("sherpa", missing.detail, missing.problem);
    const invalid = (detail: string) => {
      invalidModels.set(files.model, { version, detail });
      return new AsrEngineUnavailableError("sherpa", detail, "model-invalid");
    };
    try {
      await checkSherpaModel(this.options.kind, files);
    } catch (error) {
      throw invalid((error as Error).message);
    }
    const model =
      this.options.kind === "sense-voice"
        ? { senseVoice: { model: files.model, language: "auto", useInverseTextNormalization: 1 } }
        : { paraformer: { model: files.model } };
    try {
      const recognizer = await loadAddon()!.OfflineRecognizer.createAsync({
        featConfig: { sampleRate: SAMPLE_RATE, featureDim: 80 },
        modelConfig: {
          ...model,
          tokens: files.tokens,
          numThreads: this.options.threads || 2,
          provider: "cpu",
          debug: 0,
        },
        decodingMethod: "greedy_search",
      });
      return { recognizer, version };
    } catch (error) {
      // onnxruntime refused the graph (a corrupt or foreign file)
      throw invalid(`sherpa-onnx could not load ${files.model}: ${(error as Error).message}`);
    }
  }

  async ready(language: AsrLanguage): Promise<void> {
    if (this.options.kind === "paraformer-zh" && language === "en") {
      throw new AsrEngineUnavailableError(
        "sherpa",
        "Paraformer (zh) is a Mandarin model: use another engine for English",
        "unknown",
      );
    }
    await this.withRecognizer(async () => undefined);
  }

  /** Whether this model names the language it hears (SenseVoice does: 'auto' can rely on it). */
  get identifiesLanguage(): boolean {
    return this.options.kind === "sense-voice";
  }

  /**
   * The language SenseVoice hears in the first ~30 s of speech (the one heard longest), or
   * undefined when it cannot tell (no speech, or a Paraformer, which does not identify languages).
   */
  async identifyLanguage(
    audio: AudioInput,
    options: Pick<TranscribeOptions, "regions" | "signal">,
  ): Promise<string | undefined> {
    if (!this.identifiesLanguage) return undefined;
    const pcm = await loadAudio(audio, options.signal);
    const chunks = groupRegions(options.regions ?? detectSpeech(pcm), CHUNKING);
    return this.withRecognizer(async (recognizer) => {
      const heard = new LanguageTally();
      let heardMs = 0;
      for (const chunk of chunks) {
        if (heardMs >= LANGUAGE_SAMPLE_MS) break;
        options.signal?.throwIfAborted();
        const { result, startMs, endMs } = await this.decode(recognizer, pcm, chunk);
        if (result.text.trim()) heard.add(result.lang, endMs - startMs);
        heardMs += endMs - startMs;
      }
      return heard.longest();
    });
  }

  /** One utterance through the recognizer, with its times in the recording. */
  private async decode(recognizer: Recognizer, pcm: Pcm, chunk: SpeechRegion[]) {
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: spanAudio(pcm, chunk), sampleRate: SAMPLE_RATE });
    return { result: await recognizer.decodeAsync(stream), ...spanOf(chunk) };
  }

  async transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    await this.ready(options.language);
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    const chunks = groupRegions(regions, CHUNKING);
    const total = chunks.reduce((s, c) => s + spanOf(c).endMs - spanOf(c).startMs, 0) || 1;
    const heard = new LanguageTally();
    const segments: AsrSegment[] = [];
    let done = 0;
    await this.withRecognizer(async (recognizer) => {
      for (const chunk of chunks) {
        options.signal?.throwIfAborted();
        const { result, startMs, endMs } = await this.decode(recognizer, pcm, chunk);
        heard.add(result.lang, endMs - startMs);
        const text = result.text.trim();
        if (text) {
          const segment: AsrSegment = { startMs, endMs, text, words: wordsOf(result, startMs, endMs) };
          segments.push(segment);
          options.onSegment?.(segment);
        }
        done += endMs - startMs;
        options.onProgress?.(Math.min(1, done / total));
      }
    });
    // the language heard longest; for a Paraformer, the language it was asked for
    const language = heard.longest() ?? (options.language === "auto" ? undefined : options.language);
    return { segments, language };
  }
}

/** How long each language was heard (SenseVoice tags every utterance). */
class LanguageTally {
  private readonly ms = new Map<string, number>();
  add(tag: string | undefined, durationMs: number): void {
    const language = senseVoiceLanguage(tag);
    if (language) this.ms.set(language, (this.ms.get(language) ?? 0) + durationMs);
  }
  longest(): string | undefined {
    return [...this.ms].sort((a, b) => b[1] - a[1])[0]?.[0];
  }
}

/**
 * Token timestamps (seconds from the chunk's start, where the CTC decoder emitted each token) as words
 * with recording times (ms), cut as the stored text is (contracts/words.ts): each Han character is a word
 * (a token of several shares its time among them); an English word is its pieces (a piece without
 * SentencePiece's leading "▁" continues the word before it); punctuation tokens join the word before
 * them. A word ends where the next token begins (the chunk's end for the last).
 */
export function wordsOf(result: SherpaResult, startMs: number, endMs: number): AsrWord[] | undefined {
  const tokens = result.tokens ?? [];
  const times = result.timestamps ?? [];
  if (tokens.length === 0 || tokens.length !== times.length) return undefined;
  const words: AsrWord[] = [];
  const at = (i: number) => Math.min(endMs, Math.round(startMs + times[i]! * 1000));
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]!;
    if (/^<\|.*\|>$/.test(raw.trim())) continue;
    const text = raw.replace(/▁/g, " ").trim();
    if (!text) continue;
    const start = at(i);
    const next = Math.max(start, i + 1 < times.length ? at(i + 1) : endMs);
    const last = words[words.length - 1];
    if (!/[\p{L}\p{N}]/u.test(text)) {
      // punctuation: onto the word before it (none yet: dropped)
      if (last) last.text += text;
      continue;
    }
    // a piece without "▁" that follows a Latin word's letters continues it
    const latinTail = last && /[\p{L}\p{N}]$/u.test(last.text) && !/\p{Script=Han}$/u.test(last.text);
    // (sherpa-onnx answers the "▁" as a space)
    if (last && latinTail && !/^[▁\s]/u.test(raw) && !/\p{Script=Han}/u.test(text)) {
      last.text += text;
      last.endMs = next;
      continue;
    }
    // a token of several Han characters: one word each, sharing its time
    const chars = /^\p{Script=Han}+$/u.test(text) ? [...text] : [text];
    chars.forEach((c, k) => {
      const from = Math.round(start + ((next - start) * k) / chars.length);
      const to = Math.round(start + ((next - start) * (k + 1)) / chars.length);
      words.push({ text: c, startMs: from, endMs: to });
    });
  }
  return words.length ? words : undefined;
}
