import path from "node:path";
import { YIN } from "pitchfinder";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { speakWasm } from "../../apps/worker/src/engines/tts/espeak-wasm.ts";
import { resample, trackPitch } from "../../apps/worker/src/engines/voice/index.ts";

/**
 * Audio and measurements for the voice DSP's test (tests/worker/voice-dsp.test.ts) and bench
 * (bench/voice.mjs). Sung pitch is measured with pitchfinder's YIN — an implementation independent of
 * the product's tracker — so the tracker is not grading its own work.
 */

const root = path.resolve(import.meta.dirname, "../..");
/** Real human speech: whisper.cpp's JFK sample (11 s), shipped inside the nodejs-whisper package. */
export const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");

export async function jfk16k(): Promise<Float32Array> {
  const pcm = await decodeToPcm(JFK_MP3);
  return pcm.slice(0, pcm.length);
}

/** `text` spoken by eSpeak NG (the product's WebAssembly build) in `voice`, at `rate` Hz. */
export async function espeak(text: string, voice: string, rate: number, wordsPerMinute = 160): Promise<Float32Array> {
  const spoken = await speakWasm(text, { voice, rate: wordsPerMinute, pitch: 50 });
  return resample(
    Float32Array.from(spoken.samples, (v) => v / 32768),
    spoken.sampleRate,
    rate,
  );
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** `pieces` turns, alternating between `a` and `b` (each turn a slice of its own clip), 0.4 s apart. */
export function alternate(a: Float32Array, b: Float32Array, pieces: number, rate: number): Float32Array {
  const turn = Math.floor(Math.min(a.length, b.length) / pieces);
  const parts: Float32Array[] = [];
  for (let i = 0; i < pieces; i++) {
    parts.push((i % 2 ? b : a).subarray(i * turn, (i + 1) * turn), new Float32Array(Math.round(0.4 * rate)));
  }
  return concat(...parts);
}

export const rms = (x: Float32Array) => Math.sqrt(x.reduce((s, v) => s + v * v, 0) / Math.max(1, x.length));

/** 10·log10(reference power / error power) (dB). */
export function snrDb(estimate: Float32Array, reference: Float32Array): number {
  let error = 0;
  let signal = 0;
  for (let i = 0; i < reference.length; i++) {
    error += (estimate[i]! - reference[i]!) ** 2;
    signal += reference[i]! ** 2;
  }
  return 10 * Math.log10(signal / error);
}

/**
 * How far `b` is moved from `a` in pitch (semitones): the median over frames voiced in both of the
 * per-frame difference — a key change measured where the two can be compared, not between medians
 * of different frame sets.
 */
export function pitchShiftSemitones(a: Float32Array, b: Float32Array, rate: number): number {
  const ta = trackPitch(a, rate);
  const tb = trackPitch(b, rate);
  const d: number[] = [];
  for (let i = 0; i < Math.min(ta.length, tb.length); i++) {
    const x = ta[i];
    const y = tb[i];
    if (x != null && y != null) d.push(12 * Math.log2(y / x));
  }
  d.sort((p, q) => p - q);
  return d.length ? d[d.length >> 1]! : Number.NaN;
}

export interface SungCheck {
  /** per note: cents from the note's pitch (pitchfinder's median over its middle 60 %), null if unvoiced */
  cents: (number | null)[];
  /** per note: its energy onset minus its start (ms) */
  onsetsMs: number[];
}

/**
 * Measures sung vocals against their notes: pitch with pitchfinder's YIN on 2 049-sample frames every
 * 10 ms across the middle 60 % of each note; the onset as the largest 20 ms rise of 5 ms frame energy
 * within 150 ms of the note's start (after the previous note's end).
 */
export function checkSung(
  vocals: Float32Array,
  rate: number,
  notes: readonly { start: number; end: number; hz: number }[],
): SungCheck {
  const yin = YIN({ sampleRate: rate, threshold: 0.15 });
  let frame = 1;
  while (frame < rate / 25) frame *= 2;
  frame += 1; // pitchfinder analyses the largest power of two below the frame's length
  const cents = notes.map((n) => {
    const from = n.start + 0.2 * (n.end - n.start);
    const to = n.start + 0.8 * (n.end - n.start);
    const found: number[] = [];
    for (let t = from; t < to; t += 0.01) {
      const s = Math.round(t * rate);
      if (s + frame > vocals.length) break;
      const hz = yin(vocals.subarray(s, s + frame));
      if (hz && hz > 50 && hz < 2000) found.push(hz);
    }
    found.sort((a, b) => a - b);
    return found.length ? 1200 * Math.log2(found[found.length >> 1]! / n.hz) : null;
  });
  const hop = Math.round(rate * 0.005);
  const step = hop / rate;
  const db = Array.from({ length: Math.floor(vocals.length / hop) }, (_, f) => {
    let e = 0;
    for (let i = f * hop; i < (f + 1) * hop; i++) e += vocals[i]! ** 2;
    return 10 * Math.log10(e / hop + 1e-12);
  });
  const onsetsMs = notes.map((n, i) => {
    const previousEnd = i > 0 ? notes[i - 1]!.end : 0;
    const from = Math.max(4, Math.round((n.start - 0.15) / step), Math.round(previousEnd / step) - 10);
    const to = Math.min(db.length - 1, Math.round((n.start + 0.15) / step));
    let best = from;
    for (let f = from; f <= to; f++) if (db[f]! - db[f - 4]! > db[best]! - db[best - 4]!) best = f;
    return (best * step - n.start) * 1000;
  });
  return { cents, onsetsMs };
}

/** Share of notes within `limit` cents. */
export const withinCents = (cents: readonly (number | null)[], limit = 50) =>
  cents.filter((c) => c !== null && Math.abs(c) <= limit).length / Math.max(1, cents.length);

/**
 * The lag (s) that best lines up `b` with `a` over a window starting at `from` s, by cross-correlating
 * 10 ms energy envelopes within ±0.5 s: a tempo change shows as different lags early and late in a song.
 */
export function envelopeLag(a: Float32Array, b: Float32Array, rate: number, from: number, seconds: number): number {
  const hop = Math.round(rate / 100);
  const env = (x: Float32Array) =>
    Array.from({ length: Math.floor(x.length / hop) }, (_, f) => {
      let e = 0;
      for (let i = f * hop; i < (f + 1) * hop; i++) e += x[i]! ** 2;
      return Math.log10(e / hop + 1e-9);
    });
  const centred = (e: number[]) => {
    const mean = e.reduce((s, v) => s + v, 0) / Math.max(1, e.length);
    return e.map((v) => v - mean);
  };
  const ea = centred(env(a));
  const eb = centred(env(b));
  const start = Math.round(from * 100);
  const count = Math.round(seconds * 100);
  let best = 0;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let lag = -50; lag <= 50; lag++) {
    let score = 0;
    for (let f = start; f < start + count; f++) score += (ea[f] ?? 0) * (eb[f + lag] ?? 0);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best / 100;
}
