import { MFCC_COEFFS, MFCC_HOP, MfccExtractor } from "../../audio/features.ts";
import type { Pcm } from "../../audio/pcm.ts";
import { detectSpeech, type EnergyProfile } from "../../audio/vad.ts";
import { deltaBic, type GaussStats } from "../../speech/diarize.ts";
import type { PitchTrack } from "./pitch.ts";

/**
 * Whether a voice sample holds a second speaker: the machinery of speech/diarize.ts cut down to the one
 * question, and synchronous (a sample is at most two minutes). The speech is cut into pieces of ≤ 3 s;
 * each piece gets a voice print (mean MFCCs c1..c12, median log pitch) and frame statistics; the prints
 * are split in two (2-means, z-scored, pitch weighted as diarize weighs it); the split is two speakers
 * when both halves hold real speech and they sound apart — by their frame Gaussians (ΔBIC > 0 and a
 * divergence per frame of at least 1 nat, diarize's test) or by their pitch (medians 5+ semitones apart:
 * a man and a woman, a child and an adult).
 */

const DIMS = 12; // diarize's ΔBIC works on c1..c12
const MIN_PIECE_MS = 1000;
const PITCH_WEIGHT = 4;
const MIN_VOICED_FRAMES = 10;

export interface SpeakerCheck {
  /** 1 or 2 */
  speakers: number;
  /** per-frame divergence of the two halves' frame Gaussians (nats) */
  divergence: number;
  /** semitones between the halves' median pitches */
  pitchGap: number;
  /** seconds of speech in the smaller half */
  smallerS: number;
}

/**
 * Measured: one speaker (JFK, JFK twice, eSpeak male, eSpeak female) 0.2–0.7 nats and 0.7–2.1 semitones;
 * two taking turns (JFK and JFK a fifth up with or without its formants, eSpeak male and female, JFK then
 * eSpeak) 0.7–2.1 nats and 4.6–15 semitones, each pair over at least one of the two bars.
 */
export const SPEAKER_RULES = {
  minDivergence: 1.0,
  minPitchGapSemitones: 5,
  minSecondS: 3,
  minSecondShare: 0.15,
};

/** `pcm` at 16 kHz (the rate of the VAD's 10 ms frames and the MFCCs), its energy profile and its pitch track. */
export function checkSpeakers(pcm: Pcm, energy: EnergyProfile, track: PitchTrack): SpeakerCheck {
  const none: SpeakerCheck = { speakers: 1, divergence: 0, pitchGap: 0, smallerS: 0 };
  const pieces = detectSpeech(pcm, { maxRegionMs: 3000 }, energy).filter((r) => r.endMs - r.startMs >= MIN_PIECE_MS);
  if (pieces.length < 2) return none;
  const mfcc = new MfccExtractor();
  const coeffs = new Float64Array(MFCC_COEFFS);
  const prints: Float64Array[] = [];
  const stats: GaussStats[] = [];
  const seconds: number[] = [];
  const voiced: number[][] = [];
  for (const piece of pieces) {
    const g: GaussStats = { n: 0, sum: new Float64Array(DIMS), outer: new Float64Array(DIMS * DIMS) };
    const pitches: number[] = [];
    const audio = pcm.slice(piece.startMs * 16, piece.endMs * 16);
    const first = piece.startMs / 10;
    for (let f = 0; (f + 1) * MFCC_HOP + 240 <= audio.length; f++) {
      if ((energy.db[first + f] ?? -100) < energy.threshold) continue;
      mfcc.frame(audio, f * MFCC_HOP, coeffs);
      g.n++;
      for (let a = 0; a < DIMS; a++) {
        g.sum[a]! += coeffs[a + 1]!;
        for (let b = 0; b <= a; b++) g.outer[a * DIMS + b]! += coeffs[a + 1]! * coeffs[b + 1]!;
      }
      const hz = track[first + f];
      if (hz != null) pitches.push(Math.log2(hz));
    }
    if (g.n < 30) continue;
    pitches.sort((a, b) => a - b);
    const print = new Float64Array(DIMS + 1);
    for (let a = 0; a < DIMS; a++) print[a] = g.sum[a]! / g.n;
    // a pitch from a handful of frames is noise: such a piece is placed by its MFCCs alone
    print[DIMS] = pitches.length >= MIN_VOICED_FRAMES ? pitches[pitches.length >> 1]! : Number.NaN;
    prints.push(print);
    voiced.push(pitches);
    stats.push(g);
    seconds.push((piece.endMs - piece.startMs) / 1000);
  }
  if (prints.length < 2) return none;
  const labels = twoMeans(zScored(prints));
  const halves = [0, 1].map((c) => merge(stats.filter((_, i) => labels[i] === c)));
  const secondsOf = [0, 1].map((c) => seconds.reduce((s, v, i) => s + (labels[i] === c ? v : 0), 0));
  // each half's pitch: the median of all its voiced frames
  const pitchOf = [0, 1].map((c) => median(voiced.filter((_, i) => labels[i] === c).flat()));
  const [a, b] = halves as [GaussStats, GaussStats];
  if (a.n === 0 || b.n === 0) return none;
  const divergence = deltaBic(a, b, 0) / (a.n + b.n);
  const pitchGap = Math.abs(pitchOf[0]! - pitchOf[1]!) * 12;
  const smallerS = Math.min(...secondsOf);
  const total = secondsOf[0]! + secondsOf[1]!;
  const bigEnough = smallerS >= SPEAKER_RULES.minSecondS && smallerS >= SPEAKER_RULES.minSecondShare * total;
  const apart =
    (deltaBic(a, b) > 0 && divergence >= SPEAKER_RULES.minDivergence) ||
    (Number.isFinite(pitchGap) && pitchGap >= SPEAKER_RULES.minPitchGapSemitones);
  return { speakers: bigEnough && apart ? 2 : 1, divergence, pitchGap, smallerS };
}

function median(values: number[]): number {
  const v = values.filter((x) => !Number.isNaN(x)).sort((p, q) => p - q);
  return v.length ? v[v.length >> 1]! : Number.NaN;
}

function merge(list: GaussStats[]): GaussStats {
  const out: GaussStats = { n: 0, sum: new Float64Array(DIMS), outer: new Float64Array(DIMS * DIMS) };
  for (const g of list) {
    out.n += g.n;
    for (let i = 0; i < DIMS; i++) out.sum[i]! += g.sum[i]!;
    for (let i = 0; i < DIMS * DIMS; i++) out.outer[i]! += g.outer[i]!;
  }
  return out;
}

/** Each dimension to zero mean and unit spread over the prints (a missing pitch becomes the mean), pitch weighted. */
function zScored(prints: Float64Array[]): Float64Array[] {
  const dims = prints[0]!.length;
  const out = prints.map(() => new Float64Array(dims));
  for (let d = 0; d < dims; d++) {
    const values = prints.map((p) => p[d]!).filter((x) => !Number.isNaN(x));
    const mean = values.reduce((s, x) => s + x, 0) / Math.max(1, values.length);
    const sd = Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, values.length)) || 1;
    const weight = d === DIMS ? PITCH_WEIGHT : 1;
    prints.forEach((p, i) => {
      out[i]![d] = Number.isNaN(p[d]!) ? 0 : ((p[d]! - mean) / sd) * weight;
    });
  }
  return out;
}

/** 2-means from the two prints farthest apart. */
function twoMeans(points: Float64Array[]): Int32Array {
  const dist = (p: Float64Array, q: Float64Array) => p.reduce((s, v, d) => s + (v - q[d]!) ** 2, 0);
  let seeds: [number, number] = [0, 1];
  let far = -1;
  for (let i = 0; i < points.length; i++) {
    for (let j = i + 1; j < points.length; j++) {
      const d = dist(points[i]!, points[j]!);
      if (d > far) {
        far = d;
        seeds = [i, j];
      }
    }
  }
  const centres = seeds.map((i) => Float64Array.from(points[i]!));
  const labels = new Int32Array(points.length);
  for (let round = 0; round < 20; round++) {
    let changed = false;
    points.forEach((p, i) => {
      const l = dist(p, centres[0]!) <= dist(p, centres[1]!) ? 0 : 1;
      if (l !== labels[i]) changed = true;
      labels[i] = l;
    });
    for (const c of [0, 1]) {
      const members = points.filter((_, i) => labels[i] === c);
      if (!members.length) continue;
      centres[c]!.fill(0);
      for (const m of members) for (let d = 0; d < m.length; d++) centres[c]![d]! += m[d]! / members.length;
    }
    if (!changed && round > 0) break;
  }
  return labels;
}
