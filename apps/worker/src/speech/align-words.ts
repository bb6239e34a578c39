import { spokenForm } from "@yuelu/contracts/constants";
import { MFCC_HOP, MfccExtractor } from "../audio/features.ts";
import { SAMPLE_RATE } from "../audio/pcm.ts";
import { type EspeakEvent, speakWasm } from "../engines/tts/espeak-wasm.ts";
import { resample } from "../engines/voice/resample.ts";

/**
 * Word times measured from the audio (issue 45), for engines whose decoder gives none (Moonshine, a
 * Paraformer without timestamps): a forced aligner that runs on a bare machine. The words are spoken
 * by eSpeak NG (its WebAssembly build, in the npm package the TTS voices already use) at the recording's
 * pace, and eSpeak tells where each of its words begins. The recording and that reference are compared
 * frame by frame — by a speech encoder's states when one is given (Moonshine's: the same words in two
 * voices look alike), else by MFCCs every 10 ms — and matched by dynamic time warping in which a pause of
 * one that the other does not make is passed over cheaply, the recording's only where the reference is
 * between words. Each word's start and end in the reference are carried through the warping path into
 * the recording; each start is then refined on the recording itself, at 10 ms: moved to the onset where
 * the energy rises (within 60 ms), never inside a pause. bench/word-timing.mjs measures it against known
 * word boundaries (bench/README.md).
 */

const FRAME_MS = (MFCC_HOP / SAMPLE_RATE) * 1000; // 10 ms
/** coefficients compared (c1…c12: the spectral envelope, not the level) */
const COEFFS = 13;
/** eSpeak's default speed, and the range it is asked to speak in to match the recording's pace */
const BASE_RATE = 175;
const MIN_RATE = 80;
const MAX_RATE = 450;
/** the longest stretch aligned at once (ms): 40 s is a 4 000 × 4 000 table of MFCC frames (64 MB) at most */
const MAX_ALIGN_MS = 40_000;
/** how far (ms) a start may move to the onset the recording shows */
const SNAP_MS = 60;
/** what a frame of pause costs where only one of the two pauses (a typical frame distance is ~3) */
const PAUSE_COST = 0.5;
/** a pause of the recording's matched to a sound of the reference's costs this many pauses more */
const PAUSE_MISMATCH = 6;
/** the same in an encoder's distances (1 − cosine: ~0.3 between frames of one sound, ~1 between unlike ones) */
const ENCODER_PAUSE_COST = 0.1;
/** how near (frames) a word's start or end of the reference a pause of the recording may fall */
const BOUNDARY_FRAMES = 4;
/** a pause is at least this many frames (80 ms): shorter dips are the quiet parts of words */
const PAUSE_MIN_FRAMES = 8;

export interface WordTime {
  startMs: number;
  endMs: number;
}

export type AlignLanguage = "en" | "zh";

/** A speech encoder's states of some audio: `frames` vectors of `dim` numbers, evenly over the audio. */
export interface EncodedAudio {
  states: Float32Array;
  frames: number;
  dim: number;
}

export interface AlignOptions {
  /**
   * A neural speech encoder (Moonshine's, ~24 ms a frame): the recording and the reference are then
   * compared by its states (cosine), which hear the same words in two voices as alike far better than
   * MFCCs do; the pauses and onsets are still read at 10 ms. `encoded`: the recording's, when the caller
   * already has them.
   */
  encoder?: (audio: Float32Array) => Promise<EncodedAudio>;
  encoded?: EncodedAudio;
}

/**
 * The times (ms from the start of `audio`, 16 kHz mono floats) of `words`, which are said in it in
 * order. Words with nothing to say (punctuation) take the time of the word before them. Undefined when
 * nothing can be aligned (no speakable word, no speech, eSpeak unavailable).
 */
export async function alignWords(
  audio: Float32Array,
  words: readonly string[],
  language: AlignLanguage,
  signal?: AbortSignal,
  options: AlignOptions = {},
): Promise<WordTime[] | undefined> {
  const spoken = words.map((w) => speakable(w, language));
  if (!spoken.some(Boolean) || audio.length < SAMPLE_RATE / 20) return undefined;
  // the warping's table grows with the square of the length: engines give ≤ 30 s pieces
  if (audio.length > (MAX_ALIGN_MS / 1000) * SAMPLE_RATE) return undefined;
  const target = features(audio);
  const targetSpan = speechSpan(target.energy);
  if (!targetSpan) return undefined;

  let reference: Reference | undefined;
  try {
    reference = await speak(spoken, language, BASE_RATE, signal);
    // speak again at the recording's pace: warping matches like with like better than fast with slow
    const refMs = reference.speechMs;
    const targetMs = (targetSpan.to - targetSpan.from) * FRAME_MS;
    const ratio = refMs / Math.max(1, targetMs);
    if (refMs > 0 && (ratio < 0.85 || ratio > 1.18)) {
      const rate = Math.round(Math.min(MAX_RATE, Math.max(MIN_RATE, BASE_RATE * ratio)));
      if (rate !== BASE_RATE) reference = await speak(spoken, language, rate, signal);
    }
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  const ref = reference.features;
  const refSpan = speechSpan(ref.energy);
  if (!refSpan) return undefined;

  // the frames compared: MFCCs every 10 ms, or the encoder's states
  const grids = options.encoder
    ? {
        target: encoderGrid(options.encoded ?? (await options.encoder(audio)), target, audio.length),
        ref: encoderGrid(await options.encoder(reference.audio), ref, reference.audio.length),
      }
    : { target: mfccGrid(target), ref: mfccGrid(ref) };
  const toGrid = (grid: Grid, span: Span): Span => ({
    from: Math.min(grid.frames - 1, Math.floor((span.from * FRAME_MS) / grid.frameMs)),
    to: Math.max(1, Math.min(grid.frames, Math.ceil((span.to * FRAME_MS) / grid.frameMs))),
  });
  const refGridSpan = toGrid(grids.ref, refSpan);
  const targetGridSpan = toGrid(grids.target, targetSpan);
  // where the reference is between words: a pause of the recording's may be passed over only there
  const between = new Uint8Array(grids.ref.frames);
  const reach = Math.max(1, Math.round((BOUNDARY_FRAMES * FRAME_MS) / grids.ref.frameMs));
  for (const w of reference.words) {
    if (!w) continue;
    for (const ms of [w.startMs, w.endMs]) {
      const f = Math.round(ms / grids.ref.frameMs);
      between.fill(1, Math.max(0, f - reach), Math.min(between.length, f + reach + 1));
    }
  }
  for (let f = 0; f < between.length; f++) if (grids.ref.silent[f]) between[f] = 1;
  const path = warp(grids.ref, refGridSpan, grids.target, targetGridSpan, between);
  // a time of the reference → the time (10 ms frame) of the recording first matched to it
  const map = (ms: number): number => {
    const r = Math.min(refGridSpan.to - 1, Math.max(refGridSpan.from, Math.round(ms / grids.ref.frameMs)));
    return Math.round((path[r - refGridSpan.from]! * grids.target.frameMs) / FRAME_MS);
  };
  const frames = target.energy.length;
  const out: WordTime[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = reference.words[i];
    if (!w) {
      const before = out[out.length - 1];
      out.push(before ? { startMs: before.endMs, endMs: before.endMs } : { startMs: 0, endMs: 0 });
      continue;
    }
    let start = map(w.startMs);
    let end = map(w.endMs);
    start = snapToOnset(target.energy, start, targetSpan);
    end = Math.max(start + 1, Math.min(frames, end));
    // no word begins or ends in a pause: it begins where the pause ends, and ends where the next begins
    while (start < end - 1 && target.silent[start]) start++;
    while (end - 1 > start && target.silent[end - 1]) end--;
    out.push({ startMs: start * FRAME_MS, endMs: end * FRAME_MS });
  }
  // in order, no overlaps: a word ends where the next begins at the latest
  for (let i = 0; i < out.length; i++) {
    const next = out.slice(i + 1).find((_w, k) => reference.words[i + 1 + k]);
    if (i > 0) out[i]!.startMs = Math.max(out[i]!.startMs, out[i - 1]!.startMs);
    if (next) out[i]!.endMs = Math.min(out[i]!.endMs, Math.max(out[i]!.startMs, next.startMs));
    out[i]!.endMs = Math.max(out[i]!.startMs, out[i]!.endMs);
  }
  const total = (audio.length / SAMPLE_RATE) * 1000;
  return out.map((w) => ({
    startMs: Math.min(total, Math.round(w.startMs)),
    endMs: Math.min(total, Math.round(w.endMs)),
  }));
}

/** What eSpeak is given for a word: its letters and digits (Han characters one by one), or "" for none. */
function speakable(word: string, language: AlignLanguage): string {
  if (!spokenForm(word)) return "";
  // as written (case, apostrophes and hyphens kept: "I'm", "U.S"), without other punctuation
  const form = word
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}'’.-]+/gu, "")
    .replace(/^['’.-]+|['’.-]+$/gu, "");
  // a sentence end or a comma after it: eSpeak pauses there too
  const stop = /[.!?。！？]\W*$/u.test(word) ? "." : /[,;:，、；：]\W*$/u.test(word) ? "," : "";
  return (language === "zh" ? spokenForm(word) : form) + stop;
}

interface Features {
  /** frames × COEFFS, normalised per utterance (mean 0, variance 1 per coefficient) */
  mfcc: Float32Array;
  /** log energy (dB) per frame */
  energy: Float32Array;
  /** 1 for a frame of pause */
  silent: Uint8Array;
}

function features(audio: Float32Array): Features {
  const frames = Math.max(1, Math.floor(audio.length / MFCC_HOP));
  const extractor = new MfccExtractor();
  const all = new Float64Array(20);
  const mfcc = new Float32Array(frames * COEFFS);
  const energy = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    const start = f * MFCC_HOP;
    extractor.frame(audio, start, all);
    for (let c = 0; c < COEFFS - 1; c++) mfcc[f * COEFFS + c] = all[c + 1]!;
    let e = 0;
    const end = Math.min(audio.length, start + 400);
    for (let i = start; i < end; i++) e += audio[i]! * audio[i]!;
    energy[f] = 10 * Math.log10(e / Math.max(1, end - start) + 1e-10);
    mfcc[f * COEFFS + COEFFS - 1] = energy[f]! / 10;
  }
  normalise(mfcc, frames);
  return { mfcc, energy, silent: pauses(energy) };
}

/**
 * The frames of pause: at least PAUSE_MIN_FRAMES in a row near the recording's quiet floor (its 10th
 * percentile, +9 dB: room noise between words) or 35 dB under its loud frames (digital silence), and never
 * within 20 dB of the loud frames.
 */
function pauses(energy: Float32Array): Uint8Array {
  const frames = energy.length;
  const sorted = Float32Array.from(energy).sort();
  const loud = sorted[Math.floor(0.9 * (frames - 1))]!;
  const floor = sorted[Math.floor(0.1 * (frames - 1))]!;
  const threshold = Math.min(loud - 20, Math.max(floor + 9, loud - 35));
  const silent = new Uint8Array(frames);
  for (let f = 0; f < frames; ) {
    if (energy[f]! >= threshold) {
      f++;
      continue;
    }
    let end = f;
    while (end < frames && energy[end]! < threshold) end++;
    if (end - f >= PAUSE_MIN_FRAMES) silent.fill(1, f, end);
    f = end;
  }
  return silent;
}

function normalise(m: Float32Array, frames: number): void {
  for (let c = 0; c < COEFFS; c++) {
    let sum = 0;
    let sq = 0;
    for (let f = 0; f < frames; f++) {
      const v = m[f * COEFFS + c]!;
      sum += v;
      sq += v * v;
    }
    const mean = sum / frames;
    const sd = Math.sqrt(Math.max(1e-6, sq / frames - mean * mean));
    for (let f = 0; f < frames; f++) m[f * COEFFS + c] = (m[f * COEFFS + c]! - mean) / sd;
  }
}

interface Span {
  from: number;
  /** one past the last frame */
  to: number;
}

/** The frames from the first to the last that rise within 35 dB of the loudest (the speech, without the silence around it). */
function speechSpan(energy: Float32Array): Span | undefined {
  let peak = Number.NEGATIVE_INFINITY;
  for (const e of energy) peak = Math.max(peak, e);
  const floor = Math.max(peak - 35, -70);
  let from = -1;
  let to = -1;
  for (let f = 0; f < energy.length; f++) {
    if (energy[f]! > floor) {
      if (from < 0) from = f;
      to = f + 1;
    }
  }
  return from < 0 || to - from < 3 ? undefined : { from, to };
}

interface Reference {
  audio: Float32Array;
  features: Features;
  /** each word's start and end (ms) in the reference; undefined for words with nothing to say */
  words: (WordTime | undefined)[];
  /** from its first phoneme to its end (ms) */
  speechMs: number;
}

async function speak(
  words: readonly string[],
  language: AlignLanguage,
  rate: number,
  signal?: AbortSignal,
): Promise<Reference> {
  // the text eSpeak reads, and where each word begins in it
  let text = "";
  const offsets: number[] = [];
  for (const w of words) {
    offsets.push(w ? text.length : -1);
    if (w) text += `${w} `;
  }
  const events: EspeakEvent[] = [];
  const voice = { voice: language === "zh" ? "cmn" : "en-us", rate, pitch: 50 };
  const pcm = await speakWasm(text.trim(), voice, signal, (e) => events.push(...e));
  const floats = new Float32Array(pcm.samples.length);
  for (let i = 0; i < floats.length; i++) floats[i] = pcm.samples[i]! / 32768;
  const audio = resample(floats, pcm.sampleRate, SAMPLE_RATE);
  const totalMs = (audio.length / SAMPLE_RATE) * 1000;
  // each phoneme's start, and the word it belongs to: the word event before it. Word events are matched to
  // the words in order, by where they say they begin in the text (eSpeak's positions may fall a character
  // short after a sentence end; a number it reads as several words gives several events, the first counts)
  const phonemes: { at: number; word: number }[] = [];
  const starts = new Map<number, number>();
  let current = -1;
  let next = offsets.findIndex((o) => o >= 0);
  for (const e of events) {
    if (e.type === "word") {
      const position = e.text_position - 1;
      let i = -1;
      if (next >= 0 && next < offsets.length && position >= offsets[next]! - 1 && position <= offsets[next]!) i = next;
      else {
        const at = wordAt(offsets, position);
        if (at > current) i = at;
      }
      if (i >= 0) {
        current = i;
        if (!starts.has(i)) starts.set(i, e.audio_position);
        next = i + 1;
        while (next < offsets.length && offsets[next]! < 0) next++;
      }
    } else if (e.type === "phoneme" || e.type === "end") {
      phonemes.push({ at: e.audio_position, word: e.type === "phoneme" && e.id ? current : -1 });
    }
  }
  const spans = words.map((w, i): WordTime | undefined => {
    if (!w) return undefined;
    const own = phonemes.map((p, k) => ({ ...p, k })).filter((p) => p.word === i);
    const first = own[0]?.at ?? starts.get(i);
    if (first === undefined) return undefined;
    const last = own[own.length - 1];
    const end = last ? (phonemes[last.k + 1]?.at ?? totalMs) : first;
    return { startMs: first, endMs: Math.max(first, end) };
  });
  // words eSpeak read together with another (or skipped): between their neighbours
  for (let i = 0; i < spans.length; i++) {
    if (spans[i] || !words[i]) continue;
    const prev = spans.slice(0, i).findLast(Boolean);
    spans[i] = { startMs: prev?.endMs ?? 0, endMs: prev?.endMs ?? 0 };
  }
  const firstMs = spans.find(Boolean)?.startMs ?? 0;
  return { audio, features: features(audio), words: spans, speechMs: Math.max(0, totalMs - firstMs) };
}

/** The word whose text begins at or before character `position` (the last such). */
function wordAt(offsets: readonly number[], position: number): number {
  let found = -1;
  for (let i = 0; i < offsets.length; i++) {
    if (offsets[i]! < 0) continue;
    if (offsets[i]! <= position) found = i;
    else break;
  }
  return found;
}

/** Frames to compare: vectors, how far apart two of them are, and which are pause. */
interface Grid {
  vectors: Float32Array;
  dim: number;
  frames: number;
  frameMs: number;
  silent: Uint8Array;
  /** what passing one frame of pause costs, in this grid's distances */
  pauseCost: number;
  distance(a: Float32Array, i: number, b: Float32Array, j: number): number;
}

function mfccGrid(f: Features): Grid {
  return {
    vectors: f.mfcc,
    dim: COEFFS,
    frames: f.energy.length,
    frameMs: FRAME_MS,
    silent: f.silent,
    pauseCost: PAUSE_COST,
    distance: (a, i, b, j) => {
      let d = 0;
      for (let c = 0; c < COEFFS; c++) {
        const x = a[i * COEFFS + c]! - b[j * COEFFS + c]!;
        d += x * x;
      }
      return Math.sqrt(d);
    },
  };
}

/** An encoder's states as a grid: unit vectors (distance 1 − cosine); a frame is pause when most of its 10 ms frames are. */
function encoderGrid(encoded: EncodedAudio, fine: Features, samples: number): Grid {
  const { frames, dim } = encoded;
  const vectors = new Float32Array(frames * dim);
  for (let f = 0; f < frames; f++) {
    let norm = 0;
    for (let c = 0; c < dim; c++) norm += encoded.states[f * dim + c]! ** 2;
    const scale = 1 / Math.sqrt(norm || 1);
    for (let c = 0; c < dim; c++) vectors[f * dim + c] = encoded.states[f * dim + c]! * scale;
  }
  const frameMs = (samples / SAMPLE_RATE / frames) * 1000;
  const silent = new Uint8Array(frames);
  for (let f = 0; f < frames; f++) {
    const from = Math.floor((f * frameMs) / FRAME_MS);
    const to = Math.max(from + 1, Math.floor(((f + 1) * frameMs) / FRAME_MS));
    let quiet = 0;
    for (let k = from; k < to && k < fine.silent.length; k++) quiet += fine.silent[k]!;
    silent[f] = quiet * 2 > to - from ? 1 : 0;
  }
  return {
    vectors,
    dim,
    frames,
    frameMs,
    silent,
    pauseCost: ENCODER_PAUSE_COST,
    distance: (a, i, b, j) => {
      let dot = 0;
      for (let c = 0; c < dim; c++) dot += a[i * dim + c]! * b[j * dim + c]!;
      return 1 - dot;
    },
  };
}

/**
 * Dynamic time warping of the reference's speech onto the recording's (both spans' ends matched),
 * steps (1,1), (1,0), (0,1), within a band around the diagonal. A pause of one that the other does not
 * make is passed over cheaply (the recording's only where the reference is between words). For each
 * reference frame in its span, the first recording frame matched to it.
 */
function warp(ref: Grid, refSpan: Span, target: Grid, targetSpan: Span, between: Uint8Array): Int32Array {
  const n = refSpan.to - refSpan.from;
  const m = targetSpan.to - targetSpan.from;
  // the band: a quarter of the longer side, at least 0.6 s
  const band = Math.max(Math.round(600 / target.frameMs), Math.ceil(Math.max(n, m) / 4));
  const cost = new Float32Array(n * m).fill(Number.POSITIVE_INFINITY);
  for (let i = 0; i < n; i++) {
    const centre = Math.round((i * (m - 1)) / Math.max(1, n - 1));
    const lo = Math.max(0, centre - band);
    const hi = Math.min(m - 1, centre + band);
    for (let j = lo; j <= hi; j++) {
      // the recording's pause is not a word of the reference: matching it to one costs a pause more
      const mismatch = target.silent[targetSpan.from + j] && !ref.silent[refSpan.from + i];
      const d =
        target.distance(ref.vectors, refSpan.from + i, target.vectors, targetSpan.from + j) +
        (mismatch ? target.pauseCost * PAUSE_MISMATCH : 0);
      if (i === 0 && j === 0) {
        cost[0] = d;
        continue;
      }
      let best = Number.POSITIVE_INFINITY;
      if (i > 0 && j > 0) best = cost[(i - 1) * m + j - 1]! + d; // diagonal counts once
      if (i > 0) best = Math.min(best, cost[(i - 1) * m + j]! + (ref.silent[refSpan.from + i] ? ref.pauseCost : d));
      if (j > 0) {
        const pause = target.silent[targetSpan.from + j] && between[refSpan.from + i];
        best = Math.min(best, cost[i * m + j - 1]! + (pause ? target.pauseCost : d));
      }
      cost[i * m + j] = best;
    }
  }
  // back from the end
  const first = new Int32Array(n).fill(-1);
  let i = n - 1;
  let j = m - 1;
  while (i >= 0 && j >= 0) {
    first[i] = j;
    if (i === 0 && j === 0) break;
    const diag = i > 0 && j > 0 ? cost[(i - 1) * m + j - 1]! : Number.POSITIVE_INFINITY;
    const up = i > 0 ? cost[(i - 1) * m + j]! : Number.POSITIVE_INFINITY;
    const left = j > 0 ? cost[i * m + j - 1]! : Number.POSITIVE_INFINITY;
    if (diag <= up && diag <= left) {
      i--;
      j--;
    } else if (up <= left) i--;
    else j--;
  }
  for (let k = 0; k < n; k++) first[k] = (first[k]! < 0 ? 0 : first[k]!) + targetSpan.from;
  return first;
}

/**
 * A start moved to where the recording's energy rises: within SNAP_MS, the frame after which the
 * energy climbs most (over 30 ms), if it climbs clearly (6 dB); a start inside a pause goes to the
 * pause's end.
 */
function snapToOnset(energy: Float32Array, frame: number, span: Span): number {
  const reach = Math.round(SNAP_MS / FRAME_MS);
  const lo = Math.max(span.from, frame - reach);
  const hi = Math.min(span.to - 3, frame + reach);
  let best = frame;
  let bestRise = 6;
  for (let f = lo; f <= hi; f++) {
    const rise = energy[f + 3]! - energy[f]!;
    // nearer the warped start wins a tie (1 dB per 10 frames)
    const score = rise - Math.abs(f - frame) / 10;
    if (score > bestRise) {
      bestRise = score;
      best = f;
    }
  }
  return best;
}
