import { SAMPLE_RATE } from "./pcm.ts";

/** In-place iterative radix-2 complex FFT (n a power of two). */
export class Fft {
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly rev: Uint32Array;

  constructor(readonly n: number) {
    if (n & (n - 1)) throw new Error(`FFT size must be a power of two: ${n}`);
    this.cos = new Float64Array(n / 2);
    this.sin = new Float64Array(n / 2);
    for (let i = 0; i < n / 2; i++) {
      this.cos[i] = Math.cos((-2 * Math.PI * i) / n);
      this.sin[i] = Math.sin((-2 * Math.PI * i) / n);
    }
    this.rev = new Uint32Array(n);
    const bits = Math.log2(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.rev[i] = r;
    }
  }

  /** Forward transform of (re, im) in place; `inverse` conjugates the twiddles (unscaled). */
  transform(re: Float64Array, im: Float64Array, inverse = false): void {
    const { n, rev, cos, sin } = this;
    for (let i = 0; i < n; i++) {
      const j = rev[i]!;
      if (j > i) {
        let t = re[i]!;
        re[i] = re[j]!;
        re[j] = t;
        t = im[i]!;
        im[i] = im[j]!;
        im[j] = t;
      }
    }
    const sign = inverse ? -1 : 1;
    for (let size = 2; size <= n; size <<= 1) {
      const half = size >> 1;
      const step = n / size;
      for (let start = 0; start < n; start += size) {
        for (let k = 0; k < half; k++) {
          const wr = cos[k * step]!;
          const wi = sign * sin[k * step]!;
          const a = start + k;
          const b = a + half;
          const xr = re[b]! * wr - im[b]! * wi;
          const xi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a]! += xr;
          im[a]! += xi;
        }
      }
    }
  }
}

export const MFCC_FRAME = 400; // 25 ms
export const MFCC_HOP = 160; // 10 ms
const MFCC_FFT = 512;
const MEL_BANDS = 40;
export const MFCC_COEFFS = 20;

function melFilterbank(bands: number, fftSize: number, low: number, high: number): Float64Array[] {
  const mel = (hz: number) => 2595 * Math.log10(1 + hz / 700);
  const hz = (m: number) => 700 * (10 ** (m / 2595) - 1);
  const bins = fftSize / 2 + 1;
  const points = Array.from({ length: bands + 2 }, (_, i) => hz(mel(low) + ((mel(high) - mel(low)) * i) / (bands + 1)));
  const filters: Float64Array[] = [];
  for (let m = 0; m < bands; m++) {
    const f = new Float64Array(bins);
    for (let k = 0; k < bins; k++) {
      const freq = (k * SAMPLE_RATE) / fftSize;
      const up = (freq - points[m]!) / (points[m + 1]! - points[m]!);
      const down = (points[m + 2]! - freq) / (points[m + 2]! - points[m + 1]!);
      f[k] = Math.max(0, Math.min(up, down));
    }
    filters.push(f);
  }
  return filters;
}

/**
 * MFCCs (20 coefficients from 40 mel bands, 20 Hz–7.6 kHz, 25 ms Hamming frames every 10 ms,
 * pre-emphasis 0.97) of selected frames: frame i starts at sample i × 160 of `audio`.
 */
export class MfccExtractor {
  private readonly fft = new Fft(MFCC_FFT);
  private readonly window = Float64Array.from(
    { length: MFCC_FRAME },
    (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (MFCC_FRAME - 1)),
  );
  private readonly filters = melFilterbank(MEL_BANDS, MFCC_FFT, 20, 7600);
  private readonly dct: Float64Array[] = Array.from({ length: MFCC_COEFFS }, (_, c) =>
    Float64Array.from({ length: MEL_BANDS }, (_, m) => Math.cos((Math.PI * c * (m + 0.5)) / MEL_BANDS)),
  );
  private readonly re = new Float64Array(MFCC_FFT);
  private readonly im = new Float64Array(MFCC_FFT);
  private readonly logMel = new Float64Array(MEL_BANDS);
  private readonly power = new Float64Array(MFCC_FFT / 2 + 1);
  /** Each triangle's non-zero bins [from, to): a band touches a few bins, not all 257. */
  private readonly spans = this.filters.map((f): [number, number] => {
    const from = f.findIndex((w) => w > 0);
    return from < 0 ? [0, 0] : [from, f.findLastIndex((w) => w > 0) + 1];
  });

  /** Writes the coefficients of the frame starting at `start` (floats in [-1, 1]) into `out`. */
  frame(audio: Float32Array, start: number, out: Float64Array): void {
    const { re, im, window } = this;
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < MFCC_FRAME; i++) {
      const idx = start + i;
      const x = idx < audio.length ? audio[idx]! : 0;
      const prev = idx - 1 >= 0 && idx - 1 < audio.length ? audio[idx - 1]! : 0;
      re[i] = (x - 0.97 * prev) * window[i]!;
    }
    this.fft.transform(re, im);
    const { power, spans } = this;
    for (let k = 0; k < power.length; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
    for (let m = 0; m < MEL_BANDS; m++) {
      const f = this.filters[m]!;
      const [from, to] = spans[m]!;
      let e = 0;
      for (let k = from; k < to; k++) e += f[k]! * power[k]!;
      this.logMel[m] = Math.log(e + 1e-10);
    }
    for (let c = 0; c < MFCC_COEFFS; c++) {
      const d = this.dct[c]!;
      let s = 0;
      for (let m = 0; m < MEL_BANDS; m++) s += d[m]! * this.logMel[m]!;
      out[c] = s;
    }
  }
}

const PITCH_FRAME = 1024; // 64 ms
const PITCH_FFT = 2048;
const MIN_F0 = 60;
const MAX_F0 = 420;

/**
 * F0 by normalised autocorrelation (computed with an FFT, corrected for the window's own
 * autocorrelation): the smallest lag within 85 % of the best peak, parabolic interpolation.
 * Returns Hz, or 0 for an unvoiced frame.
 */
export class PitchTracker {
  private readonly fft = new Fft(PITCH_FFT);
  private readonly window = Float64Array.from(
    { length: PITCH_FRAME },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (PITCH_FRAME - 1)),
  );
  private readonly windowAc: Float64Array;
  private readonly re = new Float64Array(PITCH_FFT);
  private readonly im = new Float64Array(PITCH_FFT);

  constructor() {
    this.windowAc = this.autocorrelate(this.window);
  }

  private autocorrelate(frame: Float64Array): Float64Array {
    const { re, im } = this;
    re.fill(0);
    im.fill(0);
    re.set(frame);
    this.fft.transform(re, im);
    for (let k = 0; k < PITCH_FFT; k++) {
      re[k] = re[k]! * re[k]! + im[k]! * im[k]!;
      im[k] = 0;
    }
    this.fft.transform(re, im, true);
    const ac = new Float64Array(PITCH_FRAME);
    for (let k = 0; k < PITCH_FRAME; k++) ac[k] = re[k]! / PITCH_FFT;
    return ac;
  }

  f0(audio: Float32Array, start: number): number {
    const frame = new Float64Array(PITCH_FRAME);
    let energy = 0;
    for (let i = 0; i < PITCH_FRAME; i++) {
      const idx = start + i;
      const v = idx < audio.length ? audio[idx]! : 0;
      frame[i] = v * this.window[i]!;
      energy += v * v;
    }
    if (energy / PITCH_FRAME < 1e-7) return 0;
    const ac = this.autocorrelate(frame);
    if (ac[0]! <= 0) return 0;
    const minLag = Math.floor(SAMPLE_RATE / MAX_F0);
    const maxLag = Math.ceil(SAMPLE_RATE / MIN_F0);
    const norm = new Float64Array(maxLag + 2);
    let best = 0;
    for (let k = minLag - 1; k <= maxLag + 1; k++) {
      norm[k] = ac[k]! / ac[0]! / (this.windowAc[k]! / this.windowAc[0]!);
      if (k >= minLag && k <= maxLag && norm[k]! > best) best = norm[k]!;
    }
    if (best < 0.5) return 0;
    for (let k = minLag; k <= maxLag; k++) {
      if (norm[k]! >= 0.85 * best && norm[k]! >= norm[k - 1]! && norm[k]! >= norm[k + 1]!) {
        const denom = norm[k - 1]! - 2 * norm[k]! + norm[k + 1]!;
        const shift = denom !== 0 ? (0.5 * (norm[k - 1]! - norm[k + 1]!)) / denom : 0;
        return SAMPLE_RATE / (k + Math.max(-0.5, Math.min(0.5, shift)));
      }
    }
    return 0;
  }
}
