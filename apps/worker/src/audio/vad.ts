import { msToSample, PCM_WINDOW, type Pcm, SAMPLE_RATE } from "./pcm.ts";

/** A stretch of speech, in ms of the whole recording. */
export interface SpeechRegion {
  startMs: number;
  endMs: number;
}

export interface VadOptions {
  /** a pause at least this long ends a region (ms) */
  minSilenceMs?: number;
  /** regions shorter than this are dropped as clicks (ms) */
  minSpeechMs?: number;
  /** padding added on both sides of a region (ms) */
  padMs?: number;
  /** regions longer than this are cut at their quietest point (ms) */
  maxRegionMs?: number;
}

const FRAME_MS = 10;
/** silence kept on both sides of a region by default (ms) */
export const DEFAULT_PAD_MS = 120;
const FRAME = (SAMPLE_RATE * FRAME_MS) / 1000;

export interface EnergyProfile {
  /** frame energies in dBFS, one per 10 ms */
  db: Float32Array;
  /** the level above which a frame counts as speech */
  threshold: number;
}

function percentile(sorted: Float32Array, p: number): number {
  if (sorted.length === 0) return -100;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(p * (sorted.length - 1))))]!;
}

/**
 * Per-10 ms frame energy and an adaptive speech threshold: above the noise floor (10th percentile)
 * by 10 dB, not more than 40 dB under the loud frames (95th percentile), and never under -60 dBFS.
 * Read window by window (PCM_WINDOW): the front end's output is computed as it is read, never held whole.
 */
export function energyProfile(pcm: Pcm): EnergyProfile {
  const frames = Math.floor(pcm.length / FRAME);
  const db = new Float32Array(frames);
  for (let at = 0; at < frames * FRAME; at += PCM_WINDOW) {
    const s = pcm.slice(at, Math.min(frames * FRAME, at + PCM_WINDOW));
    for (let o = 0; o < s.length; o += FRAME) {
      let sum = 0;
      for (let i = 0; i < FRAME; i++) {
        const v = s[o + i]!;
        sum += v * v;
      }
      db[(at + o) / FRAME] = 10 * Math.log10(sum / FRAME + 1e-10);
    }
  }
  const sorted = Float32Array.from(db).sort();
  const noise = percentile(sorted, 0.1);
  const loud = percentile(sorted, 0.95);
  const threshold = Math.max(noise + 10, loud - 40, -60);
  return { db, threshold };
}

/**
 * Energy VAD: frames above the threshold are speech; pauses shorter than `minSilenceMs` stay inside
 * a region; regions longer than `maxRegionMs` are cut at the quietest frame of their second half.
 */
export function detectSpeech(pcm: Pcm, options: VadOptions = {}, profile = energyProfile(pcm)): SpeechRegion[] {
  const minSilence = Math.round((options.minSilenceMs ?? 300) / FRAME_MS);
  const minSpeech = Math.round((options.minSpeechMs ?? 120) / FRAME_MS);
  const pad = Math.round((options.padMs ?? DEFAULT_PAD_MS) / FRAME_MS);
  const maxRegion = Math.round((options.maxRegionMs ?? 28_000) / FRAME_MS);
  const { db, threshold } = profile;
  const raw: [number, number][] = [];
  let start = -1;
  let lastSpeech = -1;
  for (let f = 0; f < db.length; f++) {
    if (db[f]! >= threshold) {
      if (start < 0) start = f;
      lastSpeech = f;
    } else if (start >= 0 && f - lastSpeech >= minSilence) {
      raw.push([start, lastSpeech + 1]);
      start = -1;
    }
  }
  if (start >= 0) raw.push([start, lastSpeech + 1]);

  const total = db.length;
  const regions: [number, number][] = [];
  for (const [a, b] of raw) {
    if (b - a < minSpeech) continue;
    const s = Math.max(0, a - pad);
    const e = Math.min(total, b + pad);
    const prev = regions[regions.length - 1];
    if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
    else regions.push([s, e]);
  }
  const out: SpeechRegion[] = [];
  for (const [a, b] of regions) {
    for (const [s, e] of splitLong(db, a, b, maxRegion)) out.push({ startMs: s * FRAME_MS, endMs: e * FRAME_MS });
  }
  return out;
}

function splitLong(db: Float32Array, a: number, b: number, max: number): [number, number][] {
  const out: [number, number][] = [];
  let s = a;
  while (b - s > max) {
    // The quietest 100 ms window in [s + max/2, s + max).
    let best = s + max;
    let bestEnergy = Number.POSITIVE_INFINITY;
    for (let f = s + Math.floor(max / 2); f + 10 <= s + max; f++) {
      let e = 0;
      for (let i = 0; i < 10; i++) e += db[f + i]!;
      if (e < bestEnergy) {
        bestEnergy = e;
        best = f + 5;
      }
    }
    out.push([s, best]);
    s = best;
  }
  out.push([s, b]);
  return out;
}

/** The span a (non-empty) group of regions covers. */
export function spanOf(group: readonly SpeechRegion[]): SpeechRegion {
  return { startMs: group[0]?.startMs ?? 0, endMs: group[group.length - 1]?.endMs ?? 0 };
}

/** The samples of a chunk of regions, from its first start to its last end (pauses inside kept). */
export function spanAudio(pcm: Pcm, group: readonly SpeechRegion[]): Float32Array {
  const span = spanOf(group);
  return pcm.slice(msToSample(span.startMs), msToSample(span.endMs));
}

/**
 * Joins neighbouring regions into chunks for an engine: a region shorter than `minMs` is joined to a
 * neighbour closer than `maxGapMs`; regions closer than `joinGapMs` are joined while the chunk stays
 * within `maxMs`.
 */
export function groupRegions(
  regions: readonly SpeechRegion[],
  options: { maxMs: number; minMs?: number; joinGapMs?: number; maxGapMs?: number },
): SpeechRegion[][] {
  const minMs = options.minMs ?? 0;
  const joinGap = options.joinGapMs ?? 0;
  const maxGap = options.maxGapMs ?? 1500;
  const groups: SpeechRegion[][] = [];
  for (const r of regions) {
    const current = groups[groups.length - 1];
    if (current) {
      const first = current[0]!;
      const last = current[current.length - 1]!;
      const gap = r.startMs - last.endMs;
      const span = r.endMs - first.startMs;
      const currentLen = last.endMs - first.startMs;
      const short = currentLen < minMs || r.endMs - r.startMs < minMs;
      if (span <= options.maxMs && (gap <= joinGap || (short && gap <= maxGap))) {
        current.push(r);
        continue;
      }
    }
    groups.push([r]);
  }
  return groups;
}
