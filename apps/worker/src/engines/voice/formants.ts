import type { PitchTrack } from "./pitch.ts";
import { resample } from "./resample.ts";

/**
 * Formants by linear prediction, for telling a voice's apparent sex and age (apparent-speaker.ts): the
 * vocal tract's length shows in how far apart its resonances lie, whatever the pitch — a man shouting at
 * 255 Hz (the JFK clip) still has a man's formant spacing.
 *
 * Per voiced 10 ms frame (the pitch track's): the audio brought to twice the `ceilingHz` (the highest
 * formant looked for), pre-emphasised, a 25 ms Hamming window, autocorrelation LPC of order 10 (five
 * resonances), the polynomial's roots; the resonances between 150 Hz and the ceiling with a bandwidth
 * under 500 Hz are the frame's formants, lowest first. F1–F4 are the medians over the frames, and the
 * spacing ΔF is the least-squares fit of F2–F4 to a uniform tube's resonances, Fi = (2i − 1)/2 × ΔF
 * (Reby & McComb 2003; F1 is left out: it moves most with the vowel and sits nearest a high pitch).
 * ΔF = c / 2L: about 1 000 Hz for a man's 17.5 cm vocal tract, 1 200 Hz for a woman's, 1 300+ for a child's.
 */

const HOP_S = 0.01;
const WINDOW_S = 0.025;
const ORDER = 10;
const LOWEST_HZ = 150;
const WIDEST_HZ = 500;
/** at most this many frames, spread over the clip: the medians settle long before */
const MAX_FRAMES = 1500;
/** fewer frames with formants than this measure nothing */
const MIN_FRAMES = 20;

export interface FormantMeasure {
  /** median F1–F4 (Hz; NaN where no frame had that many) */
  formantsHz: [number, number, number, number];
  /** ΔF from F2–F4 (Hz) */
  spacingHz: number;
  /** frames measured */
  frames: number;
}

/** Levinson–Durbin: the LPC polynomial [1, a1 … a_order] of autocorrelation `r`, or null when unstable. */
function levinson(r: Float64Array, order: number): Float64Array | null {
  const a = new Float64Array(order + 1);
  const previous = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0]!;
  if (!(error > 0)) return null;
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = -acc / error;
    previous.set(a);
    for (let j = 1; j < i; j++) a[j] = previous[j]! + k * previous[i - j]!;
    a[i] = k;
    error *= 1 - k * k;
    if (!(error > 0)) return null;
  }
  return a;
}

/** The roots of the monic polynomial z^n + a1 z^(n−1) + … + an (Durand–Kerner), as [re, im] pairs. */
function polynomialRoots(a: Float64Array): [number, number][] {
  const n = a.length - 1;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const angle = (2 * Math.PI * i) / n + 0.4;
    re[i] = 0.9 * Math.cos(angle);
    im[i] = 0.9 * Math.sin(angle);
  }
  for (let iteration = 0; iteration < 200; iteration++) {
    let moved = 0;
    for (let i = 0; i < n; i++) {
      const zr = re[i]!;
      const zi = im[i]!;
      let pr = 1;
      let pi = 0;
      for (let k = 1; k <= n; k++) {
        const nr = pr * zr - pi * zi + a[k]!;
        pi = pr * zi + pi * zr;
        pr = nr;
      }
      let dr = 1;
      let di = 0;
      for (let j = 0; j < n; j++) {
        if (j === i) continue;
        const xr = zr - re[j]!;
        const xi = zi - im[j]!;
        const nr = dr * xr - di * xi;
        di = dr * xi + di * xr;
        dr = nr;
      }
      const den = dr * dr + di * di || 1e-30;
      const qr = (pr * dr + pi * di) / den;
      const qi = (pi * dr - pr * di) / den;
      re[i] = zr - qr;
      im[i] = zi - qi;
      moved = Math.max(moved, Math.abs(qr) + Math.abs(qi));
    }
    if (moved < 1e-9) break;
  }
  return Array.from(re, (r, i) => [r, im[i]!]);
}

const median = (values: number[]) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1]!;
};

/**
 * F1–F4 and their spacing over the voiced frames of `audio` (`sampleRate`, its pitch track at 10 ms hops),
 * resonances looked for up to `ceilingHz` (5 000 for men, 5 500 for women, as phoneticians set it); null
 * when too few frames have formants.
 */
export function measureFormants(
  audio: Float32Array,
  sampleRate: number,
  track: PitchTrack,
  ceilingHz: number,
): FormantMeasure | null {
  const rate = 2 * ceilingHz;
  const x = resample(audio, sampleRate, rate);
  const hop = rate * HOP_S;
  const length = Math.round(WINDOW_S * rate);
  const window = Float64Array.from({ length }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (length - 1)));
  const frame = new Float64Array(length);
  const r = new Float64Array(ORDER + 1);
  const found: number[][] = [[], [], [], []];
  const voiced = track.flatMap((hz, f) => (hz === null ? [] : [f]));
  const stride = Math.max(1, voiced.length / MAX_FRAMES);
  let frames = 0;
  for (let v = 0; v < voiced.length; v += stride) {
    const start = Math.round(voiced[Math.floor(v)]! * hop - length / 2);
    if (start < 1 || start + length > x.length) continue;
    for (let i = 0; i < length; i++) frame[i] = (x[start + i]! - 0.97 * x[start + i - 1]!) * window[i]!;
    for (let k = 0; k <= ORDER; k++) {
      let sum = 0;
      for (let i = k; i < length; i++) sum += frame[i]! * frame[i - k]!;
      r[k] = sum;
    }
    r[0] = r[0]! * 1.0001; // a little white noise: keeps the recursion stable on pure tones
    const lpc = levinson(r, ORDER);
    if (!lpc) continue;
    const formants = polynomialRoots(lpc)
      .filter(([, im]) => im > 0)
      .map(([re, im]) => ({
        hz: (Math.atan2(im, re) * rate) / (2 * Math.PI),
        bandwidth: (-Math.log(Math.hypot(re, im)) * rate) / Math.PI,
      }))
      .filter((p) => p.hz > LOWEST_HZ && p.hz < ceilingHz - LOWEST_HZ && p.bandwidth < WIDEST_HZ)
      .map((p) => p.hz)
      .sort((p, q) => p - q);
    if (formants.length < 3) continue;
    frames++;
    for (let i = 0; i < 4; i++) if (formants[i] !== undefined) found[i]!.push(formants[i]!);
  }
  if (frames < MIN_FRAMES) return null;
  const formantsHz = found.map(median) as FormantMeasure["formantsHz"];
  let num = 0;
  let den = 0;
  for (let i = 1; i < 4; i++) {
    const hz = formantsHz[i]!;
    if (!Number.isFinite(hz)) continue;
    const k = (2 * (i + 1) - 1) / 2;
    num += hz * k;
    den += k * k;
  }
  return den > 0 ? { formantsHz, spacingHz: num / den, frames } : null;
}
