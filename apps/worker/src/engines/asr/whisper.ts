import { spawn } from "node:child_process";
import { accessSync, closeSync, constants, existsSync, openSync, readSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { loadAudio, writeWav } from "../../audio/pcm.ts";
import { buildClip, type Clip } from "../../audio/pieces.ts";
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

export interface WhisperOptions {
  /** whisper-cli binary */
  cli: string;
  /** ggml model file */
  model: string;
  /** 0 = all cores */
  threads?: number;
  /** beam size / best-of (whisper-cli defaults: 5 / 5; 1 / 1 = greedy, much faster) */
  beamSize?: number;
  bestOf?: number;
  /** temperature fallback when decoding fails its checks (whisper-cli default: on) */
  fallback?: boolean;
  /** clips handed to one whisper-cli run (the model loads once per run) */
  filesPerRun?: number;
}

/** The Chinese initial prompt: steers whisper to simplified characters and punctuation. */
export const ZH_PROMPT = "以下是普通话的句子。";
const GGML_MAGIC = 0x67676d6c;
const MAX_CLIP_MS = 28_000;

/**
 * Why whisper cannot run with these paths — its problem key, and a sentence for the operator's log
 * naming what to install — or undefined.
 */
export function whisperMissing(
  cli: string,
  model: string,
): { problem: "binary-missing" | "model-missing"; detail: string } | undefined {
  const binary = (detail: string) => ({ problem: "binary-missing" as const, detail });
  const weights = (detail: string) => ({ problem: "model-missing" as const, detail });
  if (!existsSync(cli)) {
    return binary(
      `whisper.cpp is not built (no whisper-cli at ${cli}): install cmake and a C++ compiler, then run \`node scripts/build-whisper.mjs\` (or set WHISPER_CLI)`,
    );
  }
  try {
    accessSync(cli, constants.X_OK);
  } catch {
    return binary(
      `whisper-cli at ${cli} is not executable: run \`node scripts/build-whisper.mjs --force\` or set WHISPER_CLI`,
    );
  }
  if (!existsSync(model)) {
    return weights(`Whisper model not found at ${model}: run \`npm run models:fetch -- base\` or set WHISPER_MODEL`);
  }
  try {
    if (statSync(model).size < 1024) throw new Error("too small");
    const fd = openSync(model, "r");
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    closeSync(fd);
    if (head.readUInt32LE(0) !== GGML_MAGIC) throw new Error("bad magic");
  } catch {
    return weights(
      `${model} is not a whisper.cpp ggml model: run \`npm run models:fetch -- base\` or set WHISPER_MODEL`,
    );
  }
  return undefined;
}

/** The prompt whisper starts from: the Chinese style sentence and/or the user's hot words. */
export function whisperPrompt(language: string, hotWords: readonly string[] = []): string {
  const words: string[] = [];
  let length = 0;
  for (const w of hotWords.map((h) => h.trim()).filter(Boolean)) {
    // whisper keeps at most n_text_ctx/2 = 224 prompt tokens: stay well within it
    if (length + w.length > 150) break;
    words.push(w);
    length += w.length + 1;
  }
  if (language === "zh") return words.length ? `${ZH_PROMPT}相关词汇：${words.join("、")}。` : ZH_PROMPT;
  return words.length ? `${words.join(", ")}.` : "";
}

interface WhisperJson {
  result?: { language?: string };
  transcription?: {
    offsets: { from: number; to: number };
    text: string;
    tokens?: { text: string; offsets?: { from: number; to: number }; id: number; p: number }[];
  }[];
}

/**
 * whisper.cpp's `whisper-cli` as a child process (execFile-style argv, never a shell). Speech regions
 * are glued into clips of ≤ 28 s (long pauses shortened), written as WAV files and handed to one
 * run per batch; segments and token timestamps come from its full JSON output (-ojf).
 */
export class WhisperEngine implements AsrEngine {
  readonly name = "whisper";

  constructor(private readonly options: WhisperOptions) {}

  get model(): string {
    return path.basename(this.options.model);
  }

  async ready(): Promise<void> {
    const missing = whisperMissing(this.options.cli, this.options.model);
    if (missing) throw new AsrEngineUnavailableError("whisper", missing.detail, missing.problem);
  }

  async transcribe(audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    await this.ready();
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    if (regions.length === 0)
      return { segments: [], language: options.language === "auto" ? undefined : options.language };
    const groups = groupRegions(regions, { maxMs: MAX_CLIP_MS, joinGapMs: 2000, maxGapMs: 2000 });
    const dir = await mkdtemp(path.join(os.tmpdir(), "yuelu-whisper-"));
    try {
      const clips: { clip: Clip; wav: string; out: string }[] = [];
      for (let i = 0; i < groups.length; i++) {
        const clip = buildClip(pcm, groups[i]!);
        const wav = path.join(dir, `clip-${i}.wav`);
        await writeWav(wav, clip.audio);
        clips.push({ clip, wav, out: path.join(dir, `clip-${i}`) });
      }
      let language: string = options.language;
      if (language === "auto") {
        // Detect once on the longest clip, then decode with that language (and, for Chinese, the prompt).
        const longest = clips.reduce((a, b) => (b.clip.durationMs > a.clip.durationMs ? b : a));
        language = (await this.detectLanguage(longest.wav, options.signal)) ?? "auto";
      }
      const prompt = whisperPrompt(language, options.hotWords);
      const perRun = this.options.filesPerRun ?? 40;
      const segments: AsrSegment[] = [];
      let detected: string | undefined = language === "auto" ? undefined : language;
      for (let start = 0; start < clips.length; start += perRun) {
        const batch = clips.slice(start, start + perRun);
        await this.run(batch, language, prompt, options, (done) =>
          options.onProgress?.(Math.min(1, (start + done) / clips.length)),
        );
        for (const { clip, out } of batch) {
          const json = await readWhisperJson(`${out}.json`);
          detected ??= json.result?.language;
          for (const segment of toSegments(json, clip)) {
            segments.push(segment);
            options.onSegment?.(segment);
          }
        }
      }
      options.onProgress?.(1);
      return { segments, language: detected };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** The language spoken in the longest stretch of speech (whisper's own detection), or undefined. */
  async identifyLanguage(
    audio: AudioInput,
    options: Pick<TranscribeOptions, "regions" | "signal">,
  ): Promise<string | undefined> {
    await this.ready();
    const pcm = await loadAudio(audio, options.signal);
    const regions = options.regions ?? detectSpeech(pcm);
    if (regions.length === 0) return undefined;
    const groups = groupRegions(regions, { maxMs: MAX_CLIP_MS, joinGapMs: 2000, maxGapMs: 2000 });
    const longest = groups.map((g) => buildClip(pcm, g)).reduce((a, b) => (b.durationMs > a.durationMs ? b : a));
    const dir = await mkdtemp(path.join(os.tmpdir(), "yuelu-whisper-"));
    try {
      const wav = path.join(dir, "sample.wav");
      await writeWav(wav, longest.audio);
      return await this.detectLanguage(wav, options.signal);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private baseArgs(): string[] {
    const threads = this.options.threads || Math.max(1, os.availableParallelism());
    const args = ["-m", this.options.model, "-t", String(threads), "-p", "1"];
    if (this.options.beamSize) args.push("-bs", String(this.options.beamSize));
    if (this.options.bestOf) args.push("-bo", String(this.options.bestOf));
    if (this.options.fallback === false) args.push("-nf");
    return args;
  }

  private async detectLanguage(wav: string, signal?: AbortSignal): Promise<string | undefined> {
    const { stderr } = await this.exec([...this.baseArgs(), "-l", "auto", "-dl", "-f", wav], 120_000, signal);
    return /auto-detected language: ([a-z]{2,3})/.exec(stderr)?.[1];
  }

  private async run(
    batch: { clip: Clip; wav: string; out: string }[],
    language: string,
    prompt: string,
    options: TranscribeOptions,
    onFiles: (done: number) => void,
  ): Promise<void> {
    const args = [...this.baseArgs(), "-l", language, "-ojf", "-pp"];
    if (prompt) args.push("--prompt", prompt);
    for (const { wav, out } of batch) args.push("-f", wav, "-of", out);
    const seconds = batch.reduce((s, b) => s + b.clip.durationMs / 1000, 0);
    let files = 0;
    let percent = 0;
    await this.exec(args, Math.round(60_000 + seconds * 30_000), options.signal, (line) => {
      const p = /progress =\s*(\d+)%/.exec(line);
      if (p) percent = Number(p[1]);
      if (line.includes("saving output to")) {
        files += 1;
        percent = 0;
      }
      if (p || line.includes("saving output to")) onFiles(files + Math.min(0.99, percent / 100));
    });
  }

  /** Runs whisper-cli (argv array, no shell); rejects with its stderr tail on a non-zero exit. */
  private exec(
    args: string[],
    timeoutMs: number,
    signal?: AbortSignal,
    onStderrLine?: (line: string) => void,
  ): Promise<{ stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.cli, args, { stdio: ["ignore", "ignore", "pipe"], signal, timeout: timeoutMs });
      let tail = "";
      let partial = "";
      let detectedLine = "";
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        partial += chunk;
        const lines = partial.split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) {
          if (line.includes("auto-detected language")) detectedLine = line;
          onStderrLine?.(line);
        }
        tail = (tail + chunk).slice(-4000);
      });
      child.on("error", (error) => reject(error));
      child.on("close", (code, sig) => {
        if (code === 0) resolve({ stderr: `${detectedLine}\n${tail}` });
        else {
          const why = sig ? `killed by ${sig}` : `exit ${code}`;
          reject(new Error(`whisper-cli failed (${why}): ${tail.trim().split("\n").slice(-5).join(" | ")}`));
        }
      });
    });
  }
}

async function readWhisperJson(file: string): Promise<WhisperJson> {
  const raw = await readFile(file, "utf8");
  // whisper-cli escapes only quotes and backslashes: raw control characters may sit inside strings.
  return JSON.parse(raw.replace(/[\u0000-\u001f]/g, " ")) as WhisperJson;
}

const SPECIAL = /^\[_[A-Z_]+(?:_\d+)?\]$|^\[_TT_\d+\]$|^<\|.*\|>$/;
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]/;

function toSegments(json: WhisperJson, clip: Clip): AsrSegment[] {
  const out: AsrSegment[] = [];
  for (const s of json.transcription ?? []) {
    const text = s.text.replace(/\s+/g, " ").trim();
    if (!text) continue;
    const startMs = clip.toSourceMs(s.offsets.from);
    const endMs = Math.max(startMs, clip.toSourceMs(Math.min(s.offsets.to, clip.durationMs)));
    const words: AsrWord[] = [];
    for (const t of s.tokens ?? []) {
      if (SPECIAL.test(t.text) || !t.offsets || !t.text) continue;
      const from = clip.toSourceMs(t.offsets.from);
      const to = Math.max(from, clip.toSourceMs(Math.min(t.offsets.to, clip.durationMs)));
      const last = words[words.length - 1];
      const startsWord = !last || /^\s/.test(t.text) || CJK.test(t.text) || CJK.test(last.text.slice(-1));
      if (startsWord) {
        const w = t.text.trim();
        if (w) words.push({ startMs: from, endMs: to, text: w });
      } else {
        last.text += t.text;
        last.endMs = Math.max(last.endMs, to);
      }
    }
    out.push({ startMs, endMs, text, ...(words.length ? { words } : {}) });
  }
  return out;
}
