import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { engineIdleMs } from "../engines/idle.ts";
import type { LiveEngine, LiveStream, LiveUpdate } from "./stream.ts";

const RATE = 16_000;

interface OnlineStream {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface OnlineRecognizer {
  createStream(): OnlineStream;
  isReady(stream: OnlineStream): boolean;
  decode(stream: OnlineStream): void;
  isEndpoint(stream: OnlineStream): boolean;
  reset(stream: OnlineStream): void;
  getResult(stream: OnlineStream): { text: string };
}
interface SherpaOnlineAddon {
  OnlineRecognizer: new (config: unknown) => OnlineRecognizer;
}

/** A streaming transducer's files in `dir` (the int8 ones when both are there), or the names missing. */
export function streamingModelFiles(
  dir: string | undefined,
): { encoder: string; decoder: string; joiner: string; tokens: string } | { missing: string } {
  if (!dir) return { missing: "no streaming Chinese model is configured (LIVE_ZH_MODEL_DIR)" };
  if (!existsSync(dir)) return { missing: `LIVE_ZH_MODEL_DIR ${dir} does not exist` };
  const names = readdirSync(dir);
  const pick = (prefix: string) => {
    const all = names.filter((n) => n.startsWith(prefix) && n.endsWith(".onnx"));
    const chosen = all.find((n) => n.includes("int8")) ?? all[0];
    return chosen ? path.join(dir, chosen) : undefined;
  };
  const files = {
    encoder: pick("encoder"),
    decoder: pick("decoder"),
    joiner: pick("joiner"),
    tokens: names.includes("tokens.txt") ? path.join(dir, "tokens.txt") : undefined,
  };
  const absent = Object.entries(files)
    .filter(([, f]) => !f)
    .map(([k]) => k);
  if (absent.length) return { missing: `${dir} lacks the streaming model's ${absent.join(", ")} file(s)` };
  return files as { encoder: string; decoder: string; joiner: string; tokens: string };
}

/**
 * Chinese (and bilingual) live captions with a streaming sherpa-onnx transducer
 * (OnlineRecognizer): the model keeps its own state per stream, so each step decodes only the new
 * audio; an endpoint (a pause the model detects) turns the text so far into a final.
 */
export class SherpaLiveStream implements LiveStream {
  readonly engine = "sherpa-streaming";
  private stream: OnlineStream;
  /** samples fed in all, and where the current utterance began */
  private fed = 0;
  private utteranceStart = 0;
  private lastPartial = "";

  constructor(
    private readonly recognizer: OnlineRecognizer,
    private readonly onDispose: () => void = () => {},
  ) {
    this.stream = recognizer.createStream();
  }

  get pendingSamples(): number {
    // the model holds its own (bounded) state: nothing waits here
    return 0;
  }

  push(samples: Float32Array): void {
    this.stream.acceptWaveform({ samples, sampleRate: RATE });
    this.fed += samples.length;
  }

  async update(flush: boolean): Promise<LiveUpdate> {
    const out: LiveUpdate = { finals: [] };
    if (flush) this.stream.inputFinished();
    while (this.recognizer.isReady(this.stream)) this.recognizer.decode(this.stream);
    const text = this.recognizer.getResult(this.stream).text.trim();
    const ms = (s: number) => Math.round((s * 1000) / RATE);
    if (flush || this.recognizer.isEndpoint(this.stream)) {
      if (text) out.finals.push({ text, startMs: ms(this.utteranceStart), endMs: ms(this.fed) });
      this.recognizer.reset(this.stream);
      this.utteranceStart = this.fed;
      this.lastPartial = "";
      if (out.finals.length) out.partial = { text: "", startMs: ms(this.fed) };
    } else if (text !== this.lastPartial) {
      this.lastPartial = text;
      out.partial = { text, startMs: ms(this.utteranceStart) };
    }
    return out;
  }

  dispose(): void {
    this.onDispose();
  }
}

export class SherpaLiveEngine implements LiveEngine {
  readonly name = "sherpa-streaming";
  /** made by the first session, let go ENGINE_IDLE_SECONDS after the last one ends (engines/idle.ts) */
  private recognizer?: OnlineRecognizer;
  private streams = 0;
  private idle?: NodeJS.Timeout;

  constructor(private readonly modelDir: string | undefined) {}

  missing(): string | undefined {
    const files = streamingModelFiles(this.modelDir);
    if ("missing" in files) return files.missing;
    try {
      createRequire(import.meta.url).resolve("sherpa-onnx-node");
    } catch {
      return "the sherpa-onnx-node package is not installed (run `npm ci`)";
    }
    return undefined;
  }

  async warm(): Promise<void> {
    this.load();
  }

  private load(): OnlineRecognizer {
    if (this.recognizer) return this.recognizer;
    const files = streamingModelFiles(this.modelDir);
    if ("missing" in files) throw new Error(files.missing);
    const addon = createRequire(import.meta.url)("sherpa-onnx-node") as SherpaOnlineAddon;
    this.recognizer = new addon.OnlineRecognizer({
      featConfig: { sampleRate: RATE, featureDim: 80 },
      modelConfig: {
        transducer: { encoder: files.encoder, decoder: files.decoder, joiner: files.joiner },
        tokens: files.tokens,
        numThreads: 1,
        provider: "cpu",
        debug: 0,
      },
      decodingMethod: "greedy_search",
      enableEndpoint: 1,
      rule1MinTrailingSilence: 2.4,
      rule2MinTrailingSilence: 0.8,
      rule3MinUtteranceLength: 15,
    });
    return this.recognizer;
  }

  createStream(): LiveStream {
    const recognizer = this.load();
    this.streams += 1;
    clearTimeout(this.idle);
    let ended = false;
    return new SherpaLiveStream(recognizer, () => {
      if (ended) return;
      ended = true;
      this.streams -= 1;
      if (this.streams > 0) return;
      this.idle = setTimeout(() => {
        if (this.streams === 0) this.recognizer = undefined;
      }, engineIdleMs());
      this.idle.unref();
    });
  }
}
