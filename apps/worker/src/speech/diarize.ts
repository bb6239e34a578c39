import { regularisedCholesky, regularisedLogDet } from "@yuelu/domain/people/prints";
import { MFCC_COEFFS, MFCC_FRAME, MFCC_HOP, MfccExtractor, PitchTracker } from "../audio/features.ts";
import { msToSample, type Pcm } from "../audio/pcm.ts";
import { type EnergyProfile, energyProfile } from "../audio/vad.ts";

export interface TimeSpan {
  startMs: number;
  endMs: number;
}

export interface DiarizeOptions {
  /** the requested number of speakers; 0 or absent: estimate it (1..maxSpeakers) */
  speakerCount?: number;
  maxSpeakers?: number;
  /** the recording's energy profile (the VAD's), to keep speech frames only */
  profile?: EnergyProfile;
  /** lowest mean silhouette that counts as more than one speaker when estimating */
  minSilhouette?: number;
  /** a fixed lowest per-frame divergence (nats) between two clusters that counts as two speakers when
   * estimating; absent: it follows the clusters' speech (divergenceBar) */
  minDivergence?: number;
  /** the segments' voice prints, when already computed (BackgroundVoicePrints, during recognition) */
  features?: VoicePrints;
}

/** Per segment: its voice print and frame statistics, or null when it holds too little speech. */
export interface VoicePrints {
  prints: (Float64Array | null)[];
  stats: (GaussStats | null)[];
}

export interface Diarization {
  /** 0-based speaker per segment, numbered in order of first appearance */
  speakers: number[];
  count: number;
  /** mean silhouette of the chosen clustering (0 for a single speaker) */
  silhouette: number;
}

/** Segments shorter than this get their speaker from the nearest cluster afterwards. */
const MIN_CLUSTER_MS = 700;
const MAX_FRAMES_PER_SEGMENT = 1500;
const MAX_PITCH_FRAMES_PER_SEGMENT = 120;
const USE_COEFFS = MFCC_COEFFS - 1; // c1..c19 (c0 is loudness)

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Speaker diarization without a neural model: each segment becomes a voice print — mean and spread of
 * its MFCCs over speech frames plus its pitch (median and spread of log F0) — normalised across the
 * recording; prints are clustered agglomeratively (average linkage, cosine distance), each count's clusters
 * refined by the likelihood of their frames, to the requested count, or to the most speakers whose clusters
 * all sound distinct (frame-level ΔBIC and divergence) with a silhouette of at least `minSilhouette` (else one).
 */
export async function diarize(
  pcm: Pcm,
  segments: readonly TimeSpan[],
  options: DiarizeOptions = {},
): Promise<Diarization> {
  const n = segments.length;
  if (n === 0) return { speakers: [], count: 0, silhouette: 0 };
  const requested = Math.max(0, Math.floor(options.speakerCount ?? 0));
  if (requested === 1 || n === 1) return { speakers: segments.map(() => 0), count: 1, silhouette: 0 };
  const { prints, stats } =
    options.features ?? (await voicePrints(pcm, segments, options.profile ?? energyProfile(pcm)));
  if (prints.length !== n) throw new Error(`diarize: ${prints.length} voice prints for ${n} segments`);
  const durations = segments.map((s) => s.endMs - s.startMs);
  const core = [...Array(n).keys()].filter((i) => durations[i]! >= MIN_CLUSTER_MS && prints[i] !== null);
  if (core.length < 2) return { speakers: segments.map(() => 0), count: 1, silhouette: 0 };
  const vectors = normalise(core.map((i) => prints[i] as Float64Array));
  const distance = cosineMatrix(vectors);
  const minK = requested ? Math.min(requested, core.length) : 2;
  const maxK = Math.max(minK, Math.min(options.maxSpeakers ?? 10, core.length));
  const coreStats = core.map((i) => stats[i] as GaussStats);
  // every count's clusters as average linkage leaves them, then refined by the frames' likelihood
  const history = new Map(
    [...averageLinkage(distance, core.length, minK, maxK)].map(([k, l]) => [k, refineByLikelihood(l, k, coreStats)]),
  );

  let labels: Int32Array;
  let silhouette = 0;
  if (requested) {
    labels = history.get(Math.min(requested, core.length)) as Int32Array;
    silhouette = requested > 1 ? silhouetteScore(distance, labels, core.length) : 0;
  } else {
    // Candidate counts: every two clusters must sound like different speakers (frame-level Gaussians:
    // ΔBIC and divergence), no cluster may be a sliver, the silhouette must reach the floor; the most
    // speakers that pass win (after refinement the frame test is what tells voices apart: the silhouette,
    // measured on whole-segment prints, preferred two speakers where three real voices took turns —
    // bench/people.mjs). None: one.
    const floor = options.minSilhouette ?? 0.1;
    const speech = core.map((i) => durations[i]!);
    labels = new Int32Array(core.length);
    let found = 1;
    for (const [k, l] of history) {
      if (k <= found || !balanced(l, speech, k)) continue;
      if (!clustersDistinct(l, k, coreStats, options.minDivergence ?? MIN_DIVERGENCE)) continue;
      const score = silhouetteScore(distance, l, core.length);
      if (score < floor) continue;
      labels = l;
      silhouette = score;
      found = k;
    }
  }

  // Centroids of the clusters, then every segment (short ones too) gets a speaker.
  const k = Math.max(...labels) + 1;
  const dims = vectors[0]!.length;
  const centroids = Array.from({ length: k }, () => new Float64Array(dims));
  for (let c = 0; c < core.length; c++) {
    const v = vectors[c]!;
    const target = centroids[labels[c]!]!;
    for (let d = 0; d < dims; d++) target[d]! += v[d]!;
  }
  const raw = new Int32Array(n).fill(-1);
  core.forEach((segment, c) => {
    raw[segment] = labels[c]!;
  });
  const coreIndex = new Map(core.map((segment, c) => [segment, c]));
  const toPrint = normaliser(core.map((i) => prints[i] as Float64Array));
  for (let i = 0; i < n; i++) {
    if (raw[i]! >= 0) continue;
    const print = prints[i];
    if (print && k > 1) {
      const v = toPrint(print);
      let bestC = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let c = 0; c < k; c++) {
        const d = cosineDistance(v, centroids[c]!);
        if (d < bestD) {
          bestD = d;
          bestC = c;
        }
      }
      raw[i] = bestC;
    } else {
      // no voice print (too little speech): the nearest labelled neighbour's speaker
      let j = 1;
      while (raw[i]! < 0 && j < n) {
        for (const cand of [i - j, i + j]) {
          if (cand >= 0 && cand < n && coreIndex.has(cand)) {
            raw[i] = labels[coreIndex.get(cand) as number]!;
            break;
          }
        }
        j++;
      }
      if (raw[i]! < 0) raw[i] = 0;
    }
  }
  // Number speakers in order of first appearance.
  const order = new Map<number, number>();
  const speakers = Array.from(raw, (label) => {
    if (!order.has(label)) order.set(label, order.size);
    return order.get(label) as number;
  });
  return { speakers, count: order.size, silhouette };
}

/**
 * Hard-EM refinement of a labelling: every cluster modelled as one full-covariance Gaussian over its frames
 * (c1..c12), every segment moved to the cluster under which its frames are likeliest, until nothing moves.
 * Average linkage over whole-segment prints groups by what segments say as much as by who says it; the frames'
 * likelihood follows the voice.
 */
function refineByLikelihood(labels: Int32Array, k: number, stats: GaussStats[], rounds = 10): Int32Array {
  if (k < 2) return labels;
  const out = Int32Array.from(labels);
  for (let round = 0; round < rounds; round++) {
    const models = clusterStats(out, k, stats).map(gaussianModel);
    if (models.some((m) => m === null)) break;
    let moved = 0;
    const next = Int32Array.from(out);
    stats.forEach((g, i) => {
      let best = out[i]!;
      let bestLl = Number.NEGATIVE_INFINITY;
      models.forEach((m, c) => {
        const ll = meanLogLikelihood(m as GaussianModel, g);
        if (ll > bestLl) {
          bestLl = ll;
          best = c;
        }
      });
      if (best !== out[i]) {
        next[i] = best;
        moved++;
      }
    });
    if (moved === 0) break;
    // a move that would empty a cluster is not taken (the count is the caller's)
    const counts = new Int32Array(k);
    for (const l of next) counts[l]!++;
    if (counts.some((c) => c === 0)) break;
    out.set(next);
  }
  return out;
}

interface GaussianModel {
  mean: Float64Array;
  /** inverse covariance (full, row-major) */
  precision: Float64Array;
  logDet: number;
}

function gaussianModel(g: GaussStats): GaussianModel | null {
  const d = BIC_DIMS;
  if (g.n <= d) return null;
  const mean = g.sum.map((x) => x / g.n);
  // regularised as ΔBIC's covariances are; then the inverse column by column
  const { L, logDet } = regularisedCholesky(covarianceOf(g), d);
  const precision = new Float64Array(d * d);
  const col = new Float64Array(d);
  for (let e = 0; e < d; e++) {
    // solve L y = e_e, then Lᵀ x = y
    for (let i = 0; i < d; i++) {
      let x = i === e ? 1 : 0;
      for (let m = 0; m < i; m++) x -= L[i * d + m]! * col[m]!;
      col[i] = x / L[i * d + i]!;
    }
    for (let i = d - 1; i >= 0; i--) {
      let x = col[i]!;
      for (let m = i + 1; m < d; m++) x -= L[m * d + i]! * col[m]!;
      col[i] = x / L[i * d + i]!;
    }
    for (let i = 0; i < d; i++) precision[i * d + e] = col[i]!;
  }
  return { mean, precision, logDet };
}

/** Mean log-likelihood per frame (constants dropped) of a segment's frames under a Gaussian, from its statistics. */
function meanLogLikelihood(m: GaussianModel, g: GaussStats): number {
  const d = BIC_DIMS;
  // Σ_frames (x−μ)ᵀ P (x−μ) = tr(P·outer) − 2 μᵀP·sum + n μᵀPμ   (outer holds the lower triangle)
  let quad = 0;
  for (let a = 0; a < d; a++) {
    for (let b = 0; b < d; b++) {
      const o = a >= b ? g.outer[a * d + b]! : g.outer[b * d + a]!;
      const p = m.precision[a * d + b]!;
      quad += p * (o - g.sum[a]! * m.mean[b]! - m.mean[a]! * g.sum[b]! + g.n * m.mean[a]! * m.mean[b]!);
    }
  }
  return -0.5 * (m.logDet + quad / g.n);
}

/**
 * Least speech of a speaker: under 2 s is a word or two, whose frames differ from the next words' by what is said
 * more than by who says it (a voice of ktuberling-data saying two words a turn across three sessions came out as
 * seven speakers: bench/people.mjs part 4).
 */
const MIN_SPEAKER_MS = 2000;

/** A cluster that holds under 5 % of the speech (and under 4 s), or under MIN_SPEAKER_MS, is noise, not a speaker. */
function balanced(labels: Int32Array, durations: number[], k: number): boolean {
  const per = new Float64Array(k);
  let total = 0;
  labels.forEach((l, i) => {
    per[l]! += durations[i]!;
    total += durations[i]!;
  });
  return per.every((d) => d >= Math.min(4000, Math.max(MIN_SPEAKER_MS, 0.05 * total)));
}

/** Sufficient statistics of frame MFCCs (c1..c12) for the ΔBIC test: count, sum, sum of outer products. */
export interface GaussStats {
  n: number;
  sum: Float64Array;
  outer: Float64Array;
}
export const BIC_DIMS = 12;

/** Voice prints of segments (the CPU-heavy half of diarization: MFCCs and pitch over speech frames). */
export async function voicePrints(
  pcm: Pcm,
  segments: readonly TimeSpan[],
  profile: Pick<EnergyProfile, "db" | "threshold">,
): Promise<VoicePrints> {
  const mfcc = new MfccExtractor();
  const pitch = new PitchTracker();
  const coeffs = new Float64Array(MFCC_COEFFS);
  const prints: (Float64Array | null)[] = [];
  const stats: (GaussStats | null)[] = [];
  for (let s = 0; s < segments.length; s++) {
    if (s % 20 === 19) await tick();
    const seg = segments[s]!;
    const from = msToSample(seg.startMs);
    const audio = pcm.slice(from, msToSample(seg.endMs));
    const frameCount = Math.max(0, Math.floor((audio.length - MFCC_FRAME) / MFCC_HOP) + 1);
    // Speech frames only (by the VAD's 10 ms energy profile), evenly thinned on long segments.
    const speech: number[] = [];
    for (let f = 0; f < frameCount; f++) {
      const global = Math.floor((from + f * MFCC_HOP) / MFCC_HOP);
      if ((profile.db[global] ?? -100) >= profile.threshold) speech.push(f);
    }
    if (speech.length < 20) {
      prints.push(null);
      stats.push(null);
      continue;
    }
    const g: GaussStats = { n: 0, sum: new Float64Array(BIC_DIMS), outer: new Float64Array(BIC_DIMS * BIC_DIMS) };
    const stride = Math.max(1, speech.length / MAX_FRAMES_PER_SEGMENT);
    const sum = new Float64Array(USE_COEFFS);
    const sq = new Float64Array(USE_COEFFS);
    let used = 0;
    for (let x = 0; x < speech.length; x += stride) {
      mfcc.frame(audio, speech[Math.floor(x)]! * MFCC_HOP, coeffs);
      for (let c = 0; c < USE_COEFFS; c++) {
        sum[c]! += coeffs[c + 1]!;
        sq[c]! += coeffs[c + 1]! * coeffs[c + 1]!;
      }
      g.n++;
      for (let a = 0; a < BIC_DIMS; a++) {
        g.sum[a]! += coeffs[a + 1]!;
        for (let b = 0; b <= a; b++) g.outer[a * BIC_DIMS + b]! += coeffs[a + 1]! * coeffs[b + 1]!;
      }
      used++;
    }
    const f0s: number[] = [];
    const pstride = Math.max(1, speech.length / MAX_PITCH_FRAMES_PER_SEGMENT);
    for (let x = 0; x < speech.length; x += pstride) {
      const hz = pitch.f0(audio, speech[Math.floor(x)]! * MFCC_HOP);
      if (hz > 0) f0s.push(Math.log2(hz));
    }
    f0s.sort((a, b) => a - b);
    const print = new Float64Array(2 * USE_COEFFS + 2);
    for (let c = 0; c < USE_COEFFS; c++) {
      const mean = sum[c]! / used;
      print[c] = mean;
      print[USE_COEFFS + c] = Math.sqrt(Math.max(0, sq[c]! / used - mean * mean));
    }
    // Pitch: median and inter-quartile spread of log2 F0 (NaN when unvoiced: filled with the mean later).
    print[2 * USE_COEFFS] = f0s.length >= 5 ? f0s[Math.floor(f0s.length / 2)]! : Number.NaN;
    print[2 * USE_COEFFS + 1] =
      f0s.length >= 5 ? f0s[Math.floor(f0s.length * 0.75)]! - f0s[Math.floor(f0s.length * 0.25)]! : Number.NaN;
    prints.push(print);
    stats.push(g);
  }
  return { prints, stats };
}

function addStats(into: GaussStats, from: GaussStats): void {
  into.n += from.n;
  for (let i = 0; i < into.sum.length; i++) into.sum[i]! += from.sum[i]!;
  for (let i = 0; i < into.outer.length; i++) into.outer[i]! += from.outer[i]!;
}

/** The maximum-likelihood full covariance of the frames (full, row-major). */
function covarianceOf(g: GaussStats): Float64Array {
  const d = BIC_DIMS;
  const cov = new Float64Array(d * d);
  for (let a = 0; a < d; a++) {
    for (let b = 0; b <= a; b++) {
      const v = g.outer[a * d + b]! / g.n - (g.sum[a]! / g.n) * (g.sum[b]! / g.n);
      cov[a * d + b] = v;
      cov[b * d + a] = v;
    }
  }
  return cov;
}

/** n · log|Σ| of the maximum-likelihood full covariance (lightly regularised), by Cholesky. */
function nLogDet(g: GaussStats): number {
  return g.n * regularisedLogDet(covarianceOf(g), BIC_DIMS);
}

/**
 * ΔBIC of modelling two clusters' frames with one Gaussian instead of two (Chen & Gopalakrishnan):
 * positive = two different speakers.
 */
export function deltaBic(a: GaussStats, b: GaussStats, lambda = BIC_LAMBDA): number {
  const both: GaussStats = { n: 0, sum: new Float64Array(BIC_DIMS), outer: new Float64Array(BIC_DIMS * BIC_DIMS) };
  addStats(both, a);
  addStats(both, b);
  const params = BIC_DIMS + (BIC_DIMS * (BIC_DIMS + 1)) / 2;
  return 0.5 * (nLogDet(both) - nLogDet(a) - nLogDet(b)) - lambda * 0.5 * params * Math.log(both.n);
}
const BIC_LAMBDA = 1;

function clusterStats(labels: Int32Array, k: number, stats: GaussStats[]): GaussStats[] {
  const out = Array.from({ length: k }, () => ({
    n: 0,
    sum: new Float64Array(BIC_DIMS),
    outer: new Float64Array(BIC_DIMS * BIC_DIMS),
  }));
  labels.forEach((l, i) => {
    addStats(out[l]!, stats[i]!);
  });
  return out;
}

/**
 * Whether every two clusters of a labelling sound like different speakers: ΔBIC > 0 (with its model-size
 * penalty) and a generalised-likelihood divergence per frame of at least the bar (`minDivergence` when
 * given, else divergenceBar). The divergence keeps long recordings honest: ΔBIC grows with the amount of
 * speech, so with minutes per cluster it calls one speaker's different sentences "different".
 */
function clustersDistinct(labels: Int32Array, k: number, stats: GaussStats[], minDivergence: number): boolean {
  const c = clusterStats(labels, k, stats);
  for (let a = 0; a < k; a++) {
    for (let b = a + 1; b < k; b++) if (!soundDistinct(c[a]!, c[b]!, minDivergence)) return false;
  }
  return true;
}

/**
 * Whether two stretches of one recording's speech (their frame statistics) sound like two speakers: ΔBIC > 0
 * and a divergence per frame of at least the bar (`minDivergence` when over 0, else divergenceBar).
 */
export function soundDistinct(x: GaussStats, y: GaussStats, minDivergence = 0): boolean {
  if (deltaBic(x, y) <= 0) return false;
  const bar = minDivergence > 0 ? minDivergence : divergenceBar(Math.min(x.n, y.n));
  return deltaBic(x, y, 0) / (x.n + y.n) >= bar;
}
/** 0: the bar follows the clusters' speech (divergenceBar) */
const MIN_DIVERGENCE = 0;
/** 10 ms frames: 3 s and 8 s of speech */
const SHORT_FRAMES = 300;
const LONG_FRAMES = 800;
/** …and from 8 s of speech on */
const LONG_BAR = 0.35;
/**
 * The divergence two clusters need to count as two speakers, by the speech of the smaller one: 1.0 nats per
 * frame at 3 s and under (one voice's single sentences reach 0.9 apart: their words differ), falling to 0.35
 * at 8 s and over, where what one voice says averages out. Measured on refined clusters (bench/people.mjs,
 * 22 human voices): one voice falsely split in two sits at 0.13–0.21 once each half holds 7 s or more (0.30
 * at 7.5 s, under that point's bar of 0.41), two real voices at 0.4–1.1 from 9 s each. The most alike of them
 * sit at 0.41–0.47, which a bar of 0.5 heard as one speaker — then named as one of them, the other voice's
 * speech with it (most unknown voices given a known name were such merges). At 0.3 a two-voice recording of
 * ktuberling's words came out as three speakers; at 0.25 one voice's halves came within 0.015 of the bar.
 */
function divergenceBar(frames: number): number {
  const t = Math.min(1, Math.max(0, (frames - SHORT_FRAMES) / (LONG_FRAMES - SHORT_FRAMES)));
  return 1.0 - t * (1.0 - LONG_BAR);
}

/** Feature-group weights after z-scoring: MFCC means, MFCC spreads, pitch level, pitch spread. */
function weightOf(d: number): number {
  if (d < USE_COEFFS) return 1;
  if (d < 2 * USE_COEFFS) return 0.5;
  if (d === 2 * USE_COEFFS) return 4;
  return 1;
}

/** z-scores each dimension over the given prints and applies the group weights; returns the mapper. */
function normaliser(prints: Float64Array[]): (v: Float64Array) => Float64Array {
  const dims = prints[0]!.length;
  const mean = new Float64Array(dims);
  const std = new Float64Array(dims);
  for (let d = 0; d < dims; d++) {
    const values = prints.map((p) => p[d]!).filter((x) => !Number.isNaN(x));
    const m = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
    const v = values.length ? values.reduce((a, b) => a + (b - m) ** 2, 0) / values.length : 0;
    mean[d] = m;
    std[d] = Math.sqrt(v) || 1;
  }
  return (p) => {
    const out = new Float64Array(dims);
    for (let d = 0; d < dims; d++) out[d] = Number.isNaN(p[d]) ? 0 : ((p[d]! - mean[d]!) / std[d]!) * weightOf(d);
    return out;
  };
}

function normalise(prints: Float64Array[]): Float64Array[] {
  const map = normaliser(prints);
  return prints.map(map);
}

function cosineDistance(a: Float64Array, b: Float64Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  if (na === 0 || nb === 0) return 1;
  return 1 - dot / Math.sqrt(na * nb);
}

function cosineMatrix(vectors: Float64Array[]): Float64Array {
  const n = vectors.length;
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const d = cosineDistance(vectors[i]!, vectors[j]!);
      m[i * n + j] = d;
      m[j * n + i] = d;
    }
  }
  return m;
}

/**
 * Average-linkage agglomerative clustering (Lance–Williams updates, nearest-neighbour chain of
 * candidates): returns the labels at every cluster count from maxK down to minK.
 */
function averageLinkage(dist: Float64Array, n: number, minK: number, maxK: number): Map<number, Int32Array> {
  const d = Float64Array.from(dist);
  const size = new Int32Array(n).fill(1);
  const active = new Uint8Array(n).fill(1);
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const nn = new Int32Array(n);
  const nnDist = new Float64Array(n);
  const refresh = (i: number) => {
    let best = -1;
    let bestD = Number.POSITIVE_INFINITY;
    for (let j = 0; j < n; j++) {
      if (j === i || !active[j]) continue;
      const v = d[i * n + j]!;
      if (v < bestD) {
        bestD = v;
        best = j;
      }
    }
    nn[i] = best;
    nnDist[i] = bestD;
  };
  for (let i = 0; i < n; i++) refresh(i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  const snapshot = () => {
    const roots = new Map<number, number>();
    const labels = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = find(i);
      if (!roots.has(r)) roots.set(r, roots.size);
      labels[i] = roots.get(r) as number;
    }
    return labels;
  };
  const out = new Map<number, Int32Array>();
  let clusters = n;
  if (clusters <= maxK && clusters >= minK) out.set(clusters, snapshot());
  while (clusters > minK) {
    let a = -1;
    for (let i = 0; i < n; i++) if (active[i] && nn[i]! >= 0 && (a < 0 || nnDist[i]! < nnDist[a]!)) a = i;
    if (a < 0) break;
    const b = nn[a]!;
    // merge b into a
    for (let k = 0; k < n; k++) {
      if (!active[k] || k === a || k === b) continue;
      const v = (size[a]! * d[a * n + k]! + size[b]! * d[b * n + k]!) / (size[a]! + size[b]!);
      d[a * n + k] = v;
      d[k * n + a] = v;
    }
    size[a]! += size[b]!;
    active[b] = 0;
    parent[b] = a;
    clusters--;
    for (let k = 0; k < n; k++) {
      if (!active[k]) continue;
      if (k === a || nn[k] === a || nn[k] === b) refresh(k);
      else if (d[k * n + a]! < nnDist[k]!) {
        nn[k] = a;
        nnDist[k] = d[k * n + a]!;
      }
    }
    if (clusters <= maxK && clusters >= minK) out.set(clusters, snapshot());
  }
  return out;
}

/** Mean silhouette (cosine distances) of a labelling; singletons count 0. */
function silhouetteScore(dist: Float64Array, labels: Int32Array, n: number): number {
  const k = Math.max(...labels) + 1;
  if (k < 2) return 0;
  const counts = new Int32Array(k);
  for (const l of labels) counts[l]!++;
  let total = 0;
  const sums = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    sums.fill(0);
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += dist[i * n + j]!;
    const own = labels[i]!;
    if (counts[own]! <= 1) continue;
    const a = sums[own]! / (counts[own]! - 1);
    let b = Number.POSITIVE_INFINITY;
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!);
    total += (b - a) / Math.max(a, b, 1e-12);
  }
  return total / n;
}
