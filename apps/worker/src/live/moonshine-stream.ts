import { MoonshineEngine, moonshineMissing } from "../engines/asr/moonshine.ts";
import type { AsrSegment } from "../engines/asr/types.ts";
import { englishEvidence, judgeEnglish } from "../speech/language-check.ts";
import type { LiveEngine, LiveStream, LiveUpdate } from "./stream.ts";

const RATE = 16_000;
/** 10 ms energy frames, as the batch VAD (audio/vad.ts) uses */
const FRAME = RATE / 100;
/** a quiet stretch this long after speech ends an utterance: its text becomes final */
const PAUSE_FRAMES = 40;
/** audio kept on both sides of the speech handed to the model (it needs a little context) */
const PAD_FRAMES = 30;
/** a span with less speech than this is a click or a breath: dropped, not decoded */
const MIN_SPEECH_FRAMES = 15;
/**
 * A final needs this much speech (1 s) before a pause, as batch recognition joins pieces under 1 s to
 * a neighbour: a short phrase ("ask not") alone is often misheard, or not heard at all.
 */
const MIN_FINAL_SPEECH_FRAMES = 100;
/** …unless the speaker stopped: after this much quiet (1.5 s) even a short phrase is final */
const LONG_PAUSE_FRAMES = 150;
/**
 * Longest window decoded at once: speech without a pause this long is cut at its quietest point.
 * Moonshine takes up to ~30 s, but each partial decodes the whole window again, so shorter windows
 * keep every step cheap (12 s ≈ 0.2 s of CPU).
 */
const MAX_WINDOW_FRAMES = 1200;
/** the recent frames the speech threshold is taken from (30 s) */
const HISTORY_FRAMES = 3000;

interface WindowDecoder {
  decodeWindow(audio: Float32Array): Promise<{ text: string; confidence?: number }>;
}

/**
 * English live captions with Moonshine on a sliding window: the audio since the last final is
 * decoded again at every step (a partial); when an energy VAD finds a pause after speech — or the
 * window grows past MAX_WINDOW_FRAMES — the span up to it is decoded once more and becomes a final,
 * and the window starts after it. Only the audio of the open window is held.
 */
export class MoonshineLiveStream implements LiveStream {
  readonly engine = "moonshine";
  /** the open window's samples: [0, length) */
  private buffer = new Float32Array(RATE * 4);
  private length = 0;
  /** absolute sample index of buffer[0] */
  private base = 0;
  /** dBFS of each whole 10 ms frame of the window */
  private frames: number[] = [];
  /** dBFS of recent frames, for an adaptive speech threshold (as audio/vad.ts energyProfile) */
  private history: number[] = [];
  /** window length at the last partial decode, so an unchanged window is not decoded again */
  private decodedLength = -1;
  private lastPartial = "";
  /** the finals with the engine's confidence: the evidence that the speech is English (language-check.ts) */
  private heard: AsrSegment[] = [];

  constructor(private readonly decoder: WindowDecoder) {}

  get pendingSamples(): number {
    return this.length;
  }

  push(samples: Float32Array): void {
    if (this.length + samples.length > this.buffer.length) {
      const grown = new Float32Array(Math.max(this.buffer.length * 2, this.length + samples.length));
      grown.set(this.buffer.subarray(0, this.length));
      this.buffer = grown;
    }
    this.buffer.set(samples, this.length);
    this.length += samples.length;
    for (let f = this.frames.length; (f + 1) * FRAME <= this.length; f++) {
      let sum = 0;
      for (let i = f * FRAME; i < (f + 1) * FRAME; i++) sum += this.buffer[i]! * this.buffer[i]!;
      const db = 10 * Math.log10(sum / FRAME + 1e-10);
      this.frames.push(db);
      this.history.push(db);
    }
    if (this.history.length > HISTORY_FRAMES) this.history.splice(0, this.history.length - HISTORY_FRAMES);
  }

  async update(flush: boolean): Promise<LiveUpdate> {
    const out: LiveUpdate = { finals: [] };
    const speech = this.speechFlags();
    if (flush) {
      await this.commit(this.frames.length, speech, out, true);
    } else {
      const cut = this.cutFrame(speech);
      if (cut > 0) await this.commit(cut, speech, out, false);
    }
    this.dropLeadingSilence();
    // the partial: the open window's text, decoded again only when it changed
    const flags = this.speechFlags();
    const voiced = flags.filter(Boolean).length;
    let text = "";
    let startMs = this.msOf(0);
    if (!flush && voiced >= MIN_SPEECH_FRAMES) {
      if (this.length === this.decodedLength) return out;
      const [from, to] = this.speechSpan(flags, flags.length);
      startMs = this.msOf(from * FRAME);
      text = (await this.decoder.decodeWindow(this.buffer.slice(from * FRAME, Math.max(to * FRAME, this.length)))).text;
      this.decodedLength = this.length;
    }
    if (text !== this.lastPartial || out.finals.length > 0) {
      this.lastPartial = text;
      out.partial = { text, startMs };
    }
    return out;
  }

  dispose(): void {
    this.buffer = new Float32Array(0);
    this.length = 0;
    this.frames = [];
    this.history = [];
  }

  private msOf(sample: number): number {
    return Math.round(((this.base + sample) * 1000) / RATE);
  }

  /** Which frames of the window are speech: above the noise floor by 10 dB, within 40 dB of the loud ones, over -60 dBFS. */
  private speechFlags(): boolean[] {
    const sorted = Float64Array.from(this.history).sort();
    const at = (p: number) => (sorted.length ? sorted[Math.floor(p * (sorted.length - 1))]! : -100);
    const threshold = Math.max(at(0.1) + 10, at(0.95) - 40, -60);
    return this.frames.map((db) => db >= threshold);
  }

  /** The frame to end the next final at (a pause after speech, or the quietest point of a long window); 0: none yet. */
  private cutFrame(speech: boolean[]): number {
    let cut = 0;
    let run = 0;
    let voiced = 0;
    for (let f = 0; f < speech.length; f++) {
      if (speech[f]) {
        if (voiced >= MIN_FINAL_SPEECH_FRAMES && run >= PAUSE_FRAMES) cut = f - Math.floor(run / 2);
        voiced++;
        run = 0;
      } else {
        run++;
      }
    }
    // speech then a pause that has not ended yet: the utterance is over
    if (voiced > 0 && (run >= LONG_PAUSE_FRAMES || (voiced >= MIN_FINAL_SPEECH_FRAMES && run >= PAUSE_FRAMES))) {
      cut = speech.length - run + Math.min(PAD_FRAMES, Math.floor(run / 2));
    }
    if (cut === 0 && speech.length > MAX_WINDOW_FRAMES) {
      // no pause in a long window: cut at its quietest 100 ms in the second half
      let best = speech.length - 10;
      let bestEnergy = Number.POSITIVE_INFINITY;
      for (let f = Math.floor(speech.length / 2); f + 10 <= speech.length - 50; f++) {
        let e = 0;
        for (let i = 0; i < 10; i++) e += this.frames[f + i]!;
        if (e < bestEnergy) {
          bestEnergy = e;
          best = f + 5;
        }
      }
      cut = best;
    }
    return cut;
  }

  /** From the first speech frame (less padding) to the last (plus padding), within [0, end). */
  private speechSpan(speech: boolean[], end: number): [number, number] {
    let first = -1;
    let last = -1;
    for (let f = 0; f < end; f++) {
      if (!speech[f]) continue;
      if (first < 0) first = f;
      last = f;
    }
    if (first < 0) return [0, 0];
    return [Math.max(0, first - PAD_FRAMES), Math.min(end, last + 1 + PAD_FRAMES)];
  }

  /** Decodes frames [0, cut) into a final (when they hold speech) and starts the window after them. */
  private async commit(cut: number, speech: boolean[], out: LiveUpdate, all: boolean) {
    const voiced = speech.slice(0, cut).filter(Boolean).length;
    if (voiced >= MIN_SPEECH_FRAMES) {
      const [from, to] = this.speechSpan(speech, cut);
      const end = all ? this.length : to * FRAME;
      const { text, confidence } = await this.decoder.decodeWindow(this.buffer.slice(from * FRAME, end));
      // speech the model heard nothing in stays in the window, to be heard again with what follows
      if (!text && !all && this.frames.length < MAX_WINDOW_FRAMES / 2) return;
      if (text) {
        const final = { text, startMs: this.msOf(from * FRAME), endMs: this.msOf(end) };
        out.finals.push(final);
        this.judge({ ...final, ...(confidence !== undefined ? { confidence } : {}) }, out);
      }
    }
    const samples = all ? this.length : cut * FRAME;
    this.buffer.copyWithin(0, samples, this.length);
    this.length -= samples;
    this.base += samples;
    this.frames.splice(0, all ? this.frames.length : cut);
    this.decodedLength = -1;
    this.lastPartial = "";
  }

  /** Adds a final to the evidence; speech that clearly is not English is reported in the update. */
  private judge(final: AsrSegment, out: LiveUpdate) {
    this.heard.push(final);
    const evidence = englishEvidence(this.heard);
    const verdict = evidence ? judgeEnglish(evidence) : undefined;
    if (verdict?.english === "no") out.wrongLanguage = verdict.heard;
  }

  /** Silence before any speech is not kept beyond the padding the model wants. */
  private dropLeadingSilence() {
    const speech = this.speechFlags();
    const first = speech.indexOf(true);
    const drop = (first < 0 ? speech.length : first) - PAD_FRAMES;
    if (drop <= 0) return;
    this.buffer.copyWithin(0, drop * FRAME, this.length);
    this.length -= drop * FRAME;
    this.base += drop * FRAME;
    this.frames.splice(0, drop);
    if (this.decodedLength >= 0) this.decodedLength -= drop * FRAME;
  }
}

/** English live captions: Moonshine-tiny, the same weights (and, given, the same loaded model) as batch English. */
export class MoonshineLiveEngine implements LiveEngine {
  readonly name = "moonshine";
  constructor(private readonly engine: MoonshineEngine = new MoonshineEngine()) {}

  missing(): string | undefined {
    return moonshineMissing();
  }

  async warm(): Promise<void> {
    await this.engine.ready("en");
  }

  createStream(): LiveStream {
    return new MoonshineLiveStream(this.engine);
  }
}
