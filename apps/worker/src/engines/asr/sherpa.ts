import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { loadAudio, type Pcm, SAMPLE_RATE } from "../../audio/pcm.ts";
import { detectSpeech, groupRegions, type SpeechRegion, spanAudio, spanOf } from "../../audio/vad.ts";
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
): { problem: "binary-missing" | "model-missing"; detail: string } | undefined {
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
  return undefined;
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
  private loading?: Promise<Recognizer>;

  constructor(private readonly options: SherpaOptions) {}

  private load(): Promise<Recognizer> {
    this.loading ??= (async () => {
      const missing = sherpaMissing(this.options);
      if (missing) throw new AsrEngineUnavailableError("sherpa", missing.detail, missing.problem);
      const files = sherpaFiles(this.options.modelDir);
      const model =
        this.options.kind === "sense-voice"
          ? { senseVoice: { model: files.model, language: "auto", useInverseTextNormalization: 1 } }
          : { paraformer: { model: files.model } };
      return loadAddon()!.OfflineRecognizer.createAsync({
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
    })();
    this.loading.catch(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  async ready(language: AsrLanguage): Promise<void> {
    if (this.options.kind === "paraformer-zh" && language === "en") {
      throw new AsrEngineUnavailableError(
        "sherpa",
        "Paraformer (zh) is a Mandarin model: use another engine for English",
        "unknown",
      );
    }
    await this.load();
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
    const heard = new LanguageTally();
    let heardMs = 0;
    for (const chunk of chunks) {
      if (heardMs >= LANGUAGE_SAMPLE_MS) break;
      options.signal?.throwIfAborted();
      const { result, startMs, endMs } = await this.decode(pcm, chunk);
      if (result.text.trim()) heard.add(result.lang, endMs - startMs);
      heardMs += endMs - startMs;
    }
    return heard.longest();
  }

  /** One utterance through the recognizer, with its times in the recording. */
  private async decode(pcm: Pcm, chunk: SpeechRegion[]) {
    const recognizer = await this.load();
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
    for (const chunk of chunks) {
      options.signal?.throwIfAborted();
      const { result, startMs, endMs } = await this.decode(pcm, chunk);
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

/** Token timestamps (seconds from the chunk's start) as words with recording times (ms). */
function wordsOf(result: SherpaResult, startMs: number, endMs: number): AsrWord[] | undefined {
  const tokens = result.tokens ?? [];
  const times = result.timestamps ?? [];
  if (tokens.length === 0 || tokens.length !== times.length) return undefined;
  const words: AsrWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const text = tokens[i]!.replace(/▁/g, " ").trim();
    if (!text || /^<\|.*\|>$/.test(text)) continue;
    const at = Math.min(endMs, Math.round(startMs + times[i]! * 1000));
    const next = i + 1 < times.length ? Math.round(startMs + times[i + 1]! * 1000) : endMs;
    words.push({ text, startMs: at, endMs: Math.max(at, Math.min(endMs, next)) });
  }
  return words.length ? words : undefined;
}
