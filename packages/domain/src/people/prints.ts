/**
 * Voiceprints (docs/people.md): what a print is, how prints of one person are pooled, how two are compared and
 * when a comparison names a speaker. Two kinds, told apart by the `model` stored beside every print; prints of
 * different models are never compared:
 *
 * - `mfcc-gauss-v1` — the offline floor, computed on any machine (worker speech/speaker-prints.ts): the
 *   sufficient statistics of a speaker's frame MFCCs (c1..c19, not normalised per recording) — the frame
 *   count, the sum and the sum of outer products — so pooling several recordings is adding them, and two
 *   prints are compared as full-covariance Gaussians: the per-frame generalised likelihood ratio of "one voice"
 *   against "two voices" (Gish's GLR; the same test diarization uses within a recording, here across them).
 * - `sherpa:<file>` — a neural speaker embedding (3D-Speaker/ERes2Net and kin through sherpa-onnx) when its
 *   model file is installed: pooled by a speech-weighted mean, compared by cosine similarity.
 *
 * Thresholds: bench/people.mjs measured the GLR on real human voices (bench/README.md "people.mjs").
 */

export const GAUSS_MODEL = "mfcc-gauss-v1";
/** c1..c19 of the worker's MFCCs */
export const GAUSS_DIMS = 19;
const TRI = (GAUSS_DIMS * (GAUSS_DIMS + 1)) / 2;
/** [n, sum(19), lower triangle of Σxxᵀ (190)] */
export const GAUSS_LENGTH = 1 + GAUSS_DIMS + TRI;

/**
 * Least speech (ms) a speaker needs in a recording for its voice to be matched: under it, the print says too
 * little (on 3 s of speech the floor print confuses voices ~1 time in 10: bench/README.md) and the speaker is
 * never named by voice. Naming it still teaches the person (its print pools with the next ones).
 */
export const MIN_MATCH_SPEECH_MS = 3000;

/**
 * `mfcc-gauss-v1`: a speaker is named when −GLR ≥ this (nats per frame). Chosen on bench/people.mjs: it keeps an
 * unknown voice from getting any known name (0 of the unknown trials over the threshold there) while naming
 * ≥ 90 % of known voices with MIN_MATCH_SPEECH_MS of speech.
 */
export const GAUSS_THRESHOLD = -0.9;
/** neural embeddings: cosine similarity (sherpa-onnx's own speaker-identification examples use 0.5–0.6) */
export const COSINE_THRESHOLD = 0.6;

/**
 * `mfcc-gauss-v1`, a lower bar for a speaker the recording itself singles out (matchSpeakers' second pass):
 * of the speakers still unnamed, it is the one closest to a person still unmatched, by GAUSS_RECORDING_MARGIN
 * over the next, and that person is the closest to it, by the same margin over every other person. A print
 * from another session and microphone often falls just under GAUSS_THRESHOLD (−0.95…−1.2); beside the
 * recording's other voices it still stands out. bench/people.mjs part 2 (`--seeds 6`): known voices named right
 * 83.3 → 86.7 %, no unknown voice named that was not already merged with a known one.
 */
export const GAUSS_RECORDING_THRESHOLD = -1.2;
export const GAUSS_RECORDING_MARGIN = 0.4;

export type Print = readonly number[] | Float64Array | Float32Array;

/** Whether `vector` is a usable print of `model`. */
export function validPrint(model: string, vector: Print): boolean {
  if (!vector.length || !Array.prototype.every.call(vector, (v: number) => Number.isFinite(v))) return false;
  if (model === GAUSS_MODEL) return vector.length === GAUSS_LENGTH && vector[0]! > GAUSS_DIMS * 2;
  return true;
}

/** One print of several (a person's recordings): statistics add up; embeddings average, weighted by speech. */
export function poolPrints(model: string, prints: readonly { vector: Print; speechMs: number }[]): number[] {
  if (prints.length === 0) return [];
  const length = prints[0]!.vector.length;
  const out = new Array<number>(length).fill(0);
  if (model === GAUSS_MODEL) {
    for (const p of prints) for (let i = 0; i < length; i++) out[i]! += p.vector[i]!;
    return out;
  }
  let weight = 0;
  for (const p of prints) {
    const w = Math.max(1, p.speechMs);
    weight += w;
    const norm = Math.hypot(...p.vector) || 1;
    for (let i = 0; i < length; i++) out[i]! += (w * p.vector[i]!) / norm;
  }
  return out.map((v) => v / weight);
}

/** How alike two prints of one model are (higher: more alike). */
export function printSimilarity(model: string, a: Print, b: Print): number {
  if (a.length !== b.length) return Number.NEGATIVE_INFINITY;
  if (model === GAUSS_MODEL) return -gaussGlr(a, b);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : Number.NEGATIVE_INFINITY;
}

/** The similarity from which a speaker is named as a person. */
export function matchThreshold(model: string): number {
  return model === GAUSS_MODEL ? GAUSS_THRESHOLD : COSINE_THRESHOLD;
}

interface Gaussian {
  mean: Float64Array;
  /** second moment E[xxᵀ] (full, row-major) */
  moment: Float64Array;
}

function gaussianOf(v: Print): Gaussian {
  const d = GAUSS_DIMS;
  const n = v[0]!;
  const mean = new Float64Array(d);
  const moment = new Float64Array(d * d);
  for (let a = 0; a < d; a++) mean[a] = v[1 + a]! / n;
  let k = 1 + d;
  for (let a = 0; a < d; a++) {
    for (let b = 0; b <= a; b++) {
      const m = v[k++]! / n;
      moment[a * d + b] = m;
      moment[b * d + a] = m;
    }
  }
  return { mean, moment };
}

function covarianceOf(g: Gaussian): Float64Array {
  const d = GAUSS_DIMS;
  const c = new Float64Array(d * d);
  for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) c[a * d + b] = g.moment[a * d + b]! - g.mean[a]! * g.mean[b]!;
  return c;
}

/** log|C| by Cholesky, lightly regularised (a thousandth of the mean variance on the diagonal). */
function logDet(c: Float64Array): number {
  return regularisedLogDet(c, GAUSS_DIMS);
}

/**
 * log|C| of a symmetric d×d matrix by Cholesky, lightly regularised (a thousandth of the mean variance
 * added to the diagonal, so a nearly singular covariance still has one); `c` is left as it was. Shared
 * with the worker's diarization (its ΔBIC), which compares covariances the same way.
 */
export function regularisedLogDet(c: Float64Array, d: number): number {
  return regularisedCholesky(c, d).logDet;
}

/** The lower Cholesky factor of `c` regularised as regularisedLogDet does, and its log-determinant. */
export function regularisedCholesky(c: Float64Array, d: number): { L: Float64Array; logDet: number } {
  const m = Float64Array.from(c);
  let trace = 0;
  for (let i = 0; i < d; i++) trace += m[i * d + i]!;
  const eps = (1e-3 * trace) / d + 1e-9;
  for (let i = 0; i < d; i++) m[i * d + i]! += eps;
  const L = new Float64Array(d * d);
  let logDet = 0;
  for (let i = 0; i < d; i++) {
    for (let j = 0; j <= i; j++) {
      let s = m[i * d + j]!;
      for (let k = 0; k < j; k++) s -= L[i * d + k]! * L[j * d + k]!;
      if (i === j) {
        const v = Math.sqrt(Math.max(s, 1e-12));
        L[i * d + i] = v;
        logDet += 2 * Math.log(v);
      } else L[i * d + j] = s / L[j * d + j]!;
    }
  }
  return { L, logDet };
}

/**
 * Per-frame GLR of two prints, each weighted equally (so a long enrolment does not swamp a short recording):
 * ½·(log|Σ_pooled| − ½log|Σ_a| − ½log|Σ_b|). 0 for identical voices; distinct voices sit well above 1.
 */
export function gaussGlr(a: Print, b: Print): number {
  const A = gaussianOf(a);
  const B = gaussianOf(b);
  const d = GAUSS_DIMS;
  const ca = covarianceOf(A);
  const cb = covarianceOf(B);
  const pooled = new Float64Array(d * d);
  for (let x = 0; x < d; x++) {
    const dx = A.mean[x]! - B.mean[x]!;
    for (let y = 0; y < d; y++) {
      pooled[x * d + y] = 0.5 * (ca[x * d + y]! + cb[x * d + y]!) + 0.25 * dx * (A.mean[y]! - B.mean[y]!);
    }
  }
  return 0.5 * (logDet(pooled) - 0.5 * logDet(ca) - 0.5 * logDet(cb));
}

/** A new recording's speaker, as the worker hands it over. */
export interface SpeakerVoice {
  /** the diarization's speaker number (0-based; the segments' `speaker`) */
  speaker: number;
  model: string;
  vector: number[];
  /** speech heard from this speaker (ms) */
  speechMs: number;
}

export interface KnownPerson {
  id: number;
  model: string;
  centroid: readonly number[];
}

/**
 * Which known person each speaker is. First every speaker × person pair of one model with enough speech and a
 * similarity at or over the model's threshold, best first, each speaker and each person used once (two
 * speakers of one recording are two people). Then, for the floor print, each person still unmatched may name
 * the unnamed speaker the recording singles out for them (GAUSS_RECORDING_THRESHOLD): never a lone unnamed
 * speaker, which has no other voice to stand out from. A speaker with neither gets no name.
 */
export function matchSpeakers(
  speakers: readonly SpeakerVoice[],
  people: readonly KnownPerson[],
  minSpeechMs = MIN_MATCH_SPEECH_MS,
): Map<number, { personId: number; similarity: number }> {
  const scores: { speaker: number; personId: number; model: string; similarity: number }[] = [];
  for (const s of speakers) {
    if (s.speechMs < minSpeechMs || !validPrint(s.model, s.vector)) continue;
    for (const p of people) {
      if (p.model !== s.model || !validPrint(p.model, p.centroid)) continue;
      scores.push({
        speaker: s.speaker,
        personId: p.id,
        model: s.model,
        similarity: printSimilarity(s.model, s.vector, p.centroid),
      });
    }
  }
  const pairs = scores
    .filter((x) => x.similarity >= matchThreshold(x.model))
    .sort((x, y) => y.similarity - x.similarity);
  const out = new Map<number, { personId: number; similarity: number }>();
  const taken = new Set<number>();
  for (const pair of pairs) {
    if (out.has(pair.speaker) || taken.has(pair.personId)) continue;
    out.set(pair.speaker, { personId: pair.personId, similarity: pair.similarity });
    taken.add(pair.personId);
  }
  for (const person of people) {
    if (taken.has(person.id) || person.model !== GAUSS_MODEL) continue;
    const open = scores
      .filter((x) => x.personId === person.id && !out.has(x.speaker))
      .sort((x, y) => y.similarity - x.similarity);
    const [best, next] = open;
    if (!best || !next || best.similarity < GAUSS_RECORDING_THRESHOLD) continue;
    if (best.similarity - next.similarity < GAUSS_RECORDING_MARGIN) continue;
    const rivals = scores.filter((x) => x.speaker === best.speaker && x.personId !== person.id);
    if (rivals.some((x) => best.similarity - x.similarity < GAUSS_RECORDING_MARGIN)) continue;
    out.set(best.speaker, { personId: person.id, similarity: best.similarity });
    taken.add(person.id);
  }
  return out;
}
