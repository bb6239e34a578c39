import { encodeWav, loadAudio } from "../../audio/pcm.ts";
import { buildClip } from "../../audio/pieces.ts";
import { detectSpeech, groupRegions } from "../../audio/vad.ts";
import {
  type AsrEngine,
  AsrEngineUnavailableError,
  type AsrResult,
  type AsrSegment,
  type AsrWord,
  type AudioInput,
  type TranscribeOptions,
} from "./types.ts";

export interface OpenAiAsrOptions {
  /** base URL: requests go to `${url}/v1/audio/transcriptions` (a trailing /v1 is tolerated) */
  url?: string;
  key?: string;
  model: string;
  /** per request (ms) */
  timeoutMs?: number;
  /** audio per request: 16-bit WAV at 32 kB/s, so 5 min ≈ 9.6 MB (OpenAI's limit is 25 MB) */
  maxClipMs?: number;
}

interface VerboseJson {
  text?: string;
  language?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
}

/** Whisper's verbose_json names languages in full ("chinese"); the app wants codes. */
const LANGUAGE_NAMES: Record<string, string> = { chinese: "zh", english: "en", japanese: "ja", korean: "ko" };

export function openAiMissing(url: string | undefined): string | undefined {
  return url
    ? undefined
    : "no OpenAI-compatible ASR server is configured: set OPENAI_ASR_URL (and OPENAI_ASR_KEY if it needs one)";
}

/**
 * An OpenAI-compatible transcription server (OpenAI, a GPU faster-whisper or whisper.cpp server):
 * multipart POST of WAV clips (speech regions, long pauses shortened, ≤ 5 min each) with
 * response_format=verbose_json and segment + word timestamps.
 */
export class OpenAiAsrEngine implements AsrEngine {
  readonly name = "openai-compatible";

  constructor(private readonly options: OpenAiAsrOptions) {}

  get model(): string {
    return this.options.model;
  }

  private endpoint(): string {
    const base = (this.options.url ?? "").replace(/\/+$/, "").replace(/\/v1$/, "");
    return `${base}/v1/audio/transcriptions`;
  }

  async ready(): Promise<void> {
    const missing = openAiMissing(this.options.url);
    if (missing) throw new AsrEngineUnavailableError("openai-compatible", missing, "server-missing");
  }

  async transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    await this.ready();
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    const groups = groupRegions(regions, {
      maxMs: this.options.maxClipMs ?? 300_000,
      joinGapMs: Number.POSITIVE_INFINITY,
    });
    const segments: AsrSegment[] = [];
    let language: string | undefined;
    for (let i = 0; i < groups.length; i++) {
      options.signal?.throwIfAborted();
      const clip = buildClip(pcm, groups[i]!);
      const body = await this.request(encodeWav(clip.audio), options, clip.durationMs);
      if (body.language) language ??= LANGUAGE_NAMES[body.language.toLowerCase()] ?? body.language.toLowerCase();
      const words: AsrWord[] = (body.words ?? []).map((w) => ({
        startMs: clip.toSourceMs(w.start * 1000),
        endMs: clip.toSourceMs(w.end * 1000),
        text: w.word.trim(),
      }));
      const raw = body.segments?.length
        ? body.segments
        : body.text?.trim()
          ? [{ start: 0, end: clip.durationMs / 1000, text: body.text }]
          : [];
      for (const s of raw) {
        const text = s.text.replace(/\s+/g, " ").trim();
        if (!text) continue;
        const startMs = clip.toSourceMs(s.start * 1000);
        const endMs = Math.max(startMs, clip.toSourceMs(s.end * 1000));
        const own = words.filter((w) => w.text && w.startMs >= startMs - 50 && w.startMs < endMs);
        const segment = { startMs, endMs, text, ...(own.length ? { words: own } : {}) };
        segments.push(segment);
        options.onSegment?.(segment);
      }
      options.onProgress?.((i + 1) / groups.length);
    }
    return { segments, language: language ?? (options.language === "auto" ? undefined : options.language) };
  }

  private async request(wav: Buffer, options: TranscribeOptions, clipMs: number): Promise<VerboseJson> {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(wav)], { type: "audio/wav" }), "audio.wav");
    form.append("model", this.options.model);
    if (options.language !== "auto") form.append("language", options.language);
    const hot = (options.hotWords ?? []).map((w) => w.trim()).filter(Boolean);
    if (hot.length) form.append("prompt", hot.join(options.language === "zh" ? "、" : ", "));
    form.append("response_format", "verbose_json");
    form.append("timestamp_granularities[]", "segment");
    form.append("timestamp_granularities[]", "word");
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? Math.max(120_000, clipMs * 2));
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await fetch(this.endpoint(), {
        method: "POST",
        body: form,
        headers: this.options.key ? { authorization: `Bearer ${this.options.key}` } : {},
        signal,
      });
    } catch (error) {
      const why = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : "";
      throw new Error(`the ASR server at ${this.endpoint()} could not be reached: ${why}`);
    }
    const text = await res.text();
    if (res.status === 401 || res.status === 403 || res.status === 404) {
      // A configuration problem (key refused, wrong URL): retrying cannot help.
      throw new AsrEngineUnavailableError(
        "openai-compatible",
        `the ASR server at ${this.endpoint()} answered HTTP ${res.status}: check OPENAI_ASR_URL and OPENAI_ASR_KEY (${text.slice(0, 200)})`,
        "server-refused",
      );
    }
    if (!res.ok) {
      throw new Error(`the ASR server answered HTTP ${res.status}: ${text.slice(0, 300)}`);
    }
    try {
      return JSON.parse(text) as VerboseJson;
    } catch {
      throw new Error(`the ASR server answered something that is not JSON: ${text.slice(0, 200)}`);
    }
  }
}
