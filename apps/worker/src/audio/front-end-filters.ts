import { Fft } from "./features.ts";
import { PCM_WINDOW, type Pcm, SAMPLE_RATE } from "./pcm.ts";

/**
 * The speech front end's filters (audio/front-end.ts decides which): a gain, a high shelf, and the STFT
 * Wiener filters for noise and late reverberation. Each computes its output window by window from the
 * recording as the window is asked for, never the whole recording at once (issue 44: a second copy of
 * 3 hours is 346 MB); filters with a state save it every PCM_WINDOW, so any window, read in any order,
 * holds exactly what one pass over the whole recording gives.
 */

export const FFT_SIZE = 512; // 32 ms at 16 kHz
export const HOP = FFT_SIZE / 2;
export const BINS = FFT_SIZE / 2 + 1;

/** The square root of a periodic Hann window: at 50 % overlap analysis × synthesis sums to one. */
const SQRT_HANN = Float64Array.from({ length: FFT_SIZE }, (_, i) =>
  Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE)),
);

/**
 * Power spectra of STFT frames, one at a time. Frame f covers samples [(f − 1) × HOP, (f + 1) × HOP):
 * the first and last frames hang over the ends (zeros there), so every sample lies under two frames.
 */
export class Spectra {
  private readonly fft = new Fft(FFT_SIZE);
  readonly re = new Float64Array(FFT_SIZE);
  readonly im = new Float64Array(FFT_SIZE);
  readonly frames: number;
  private readonly samples: SampleReader;

  /** `blockSize`: how much of the recording is read at a time (PCM_WINDOW for a pass, less for scattered frames) */
  constructor(pcm: Pcm, blockSize = PCM_WINDOW) {
    this.frames = Math.ceil(pcm.length / HOP) + 1;
    this.samples = new SampleReader(pcm, blockSize);
  }

  /** Transforms frame `f` into (re, im) and writes its power per bin into `power`. */
  frame(f: number, power: Float64Array): void {
    const { re, im, samples } = this;
    const start = frameStart(f);
    for (let i = 0; i < FFT_SIZE; i++) {
      re[i] = samples.at(start + i) * SQRT_HANN[i]!;
      im[i] = 0;
    }
    this.fft.transform(re, im);
    for (let k = 0; k < BINS; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
  }
}

export const frameStart = (f: number) => (f - 1) * HOP;

/**
 * A Pcm's samples one at a time, read `size` at a time (aligned blocks; the last two are kept, as a frame
 * may straddle two). Outside the recording: 0.
 */
class SampleReader {
  private current: { start: number; data: Float32Array } = { start: 0, data: new Float32Array(0) };
  private previous = this.current;

  constructor(
    private readonly pcm: Pcm,
    private readonly size: number,
  ) {}

  at(i: number): number {
    if (i < 0 || i >= this.pcm.length) return 0;
    let block = this.current;
    if (i < block.start || i >= block.start + block.data.length) {
      block = this.previous;
      if (i < block.start || i >= block.start + block.data.length) {
        const start = i - (i % this.size);
        block = { start, data: this.pcm.slice(start, start + this.size) };
      }
      this.previous = this.current;
      this.current = block;
    }
    return block.data[i - block.start]!;
  }
}

/** Output computed window by window: samples [start, end) as floats (whole 16-bit steps). */
export interface WindowFilter {
  render(start: number, end: number): Float32Array;
}

/** A biquad's coefficients, normalised by a0. */
export interface Biquad {
  b0: number;
  b1: number;
  b2: number;
  a0: number;
  a1: number;
  a2: number;
}

/** A high shelf (Audio EQ Cookbook, R. Bristow-Johnson; slope 1): everything above `hz` raised by `db`. */
export function highShelf(hz: number, db: number): Biquad {
  const a = 10 ** (db / 40);
  const w0 = (2 * Math.PI * hz) / SAMPLE_RATE;
  const cos = Math.cos(w0);
  const alpha = (Math.sin(w0) / 2) * Math.SQRT2; // slope S = 1
  const root = 2 * Math.sqrt(a) * alpha;
  return {
    b0: a * (a + 1 + (a - 1) * cos + root),
    b1: -2 * a * (a - 1 + (a + 1) * cos),
    b2: a * (a + 1 + (a - 1) * cos - root),
    a0: a + 1 - (a - 1) * cos + root,
    a1: 2 * (a - 1 - (a + 1) * cos),
    a2: a + 1 - (a - 1) * cos - root,
  };
}

/**
 * `gain` applied to the 16-bit samples (clipped), then, when given, the shelf over those. The shelf's state
 * (its last two inputs and outputs) is saved every PCM_WINDOW samples as a pass reaches them, so a window
 * is filtered from the saved state before it: exactly as one pass over the whole recording.
 */
export function levelled(pcm: Pcm, gain: number, shelf: Biquad | undefined): WindowFilter {
  const saved: Float64Array[] = [new Float64Array(4)]; // [x1, x2, y1, y2] before sample k × PCM_WINDOW
  // (a sample times 32768 is the 16-bit value itself, exactly: times `gain` as the 16-bit samples were)
  return {
    render(start, end) {
      const out = new Float32Array(end - start);
      if (!shelf) {
        const samples = pcm.slice(start, end);
        for (let i = 0; i < samples.length; i++) out[i] = clip16(samples[i]! * 32768 * gain) / 32768;
        return out;
      }
      const { b0, b1, b2, a0, a1, a2 } = shelf;
      const k = Math.min(Math.floor(start / PCM_WINDOW), saved.length - 1);
      let [x1, x2, y1, y2] = saved[k] as unknown as [number, number, number, number];
      // from the saved state before `start`, a window at a time (saving the states passed on the way)
      for (let from = k * PCM_WINDOW; from < end; from += PCM_WINDOW) {
        if (from / PCM_WINDOW === saved.length) saved.push(Float64Array.of(x1, x2, y1, y2));
        const samples = pcm.slice(from, Math.min(end, from + PCM_WINDOW));
        for (let j = 0; j < samples.length; j++) {
          const x = clip16(samples[j]! * 32768 * gain);
          const y = (b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
          x2 = x1;
          x1 = x;
          y2 = y1;
          y1 = y;
          const at = from + j;
          if (at >= start) out[at - start] = clip16(y) / 32768;
        }
      }
      return out;
    },
  };
}

/** `v` as a 16-bit sample: rounded, clipped, and never −0 (a 16-bit array holds no −0; floats of it would). */
const clip16 = (v: number) => (v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v) | 0);

/**
 * STFT Wiener filter with a decision-directed a priori SNR (Ephraim & Malah 1984) against the
 * recording's own noise spectrum; gains floored at tuning.gainFloorDb.
 */
export function wienerFilter(
  pcm: Pcm,
  measuredNoise: Float64Array,
  gain: number,
  tune: { noiseOverDb: number; gainFloorDb: number; ddAlpha: number },
): WindowFilter {
  const over = 10 ** (tune.noiseOverDb / 10);
  const noise = measuredNoise.map((p) => p * over + 1e-12);
  return new DdWienerFilter(pcm, gain, tune.gainFloorDb, tune.ddAlpha, {
    next: () => noise,
    save: () => [],
    restore: () => {},
  });
}

/** Reverberation arriving later than this after the direct sound (3 STFT hops, 48 ms) counts as late. */
const LATE_REVERB_DELAY_FRAMES = 3;

/**
 * Late-reverberation suppression (Lebart, Boucher & Denbigh 2001): the late reverberant power of a bin
 * is its power LATE_REVERB_DELAY_FRAMES earlier, decayed as a room of `rt60Ms` decays in that time; it
 * is removed by the same decision-directed Wiener gain as noise, floored at `floorDb`.
 */
export function suppressLateReverb(pcm: Pcm, rt60Ms: number, gain: number, floorDb: number): WindowFilter {
  const delay = LATE_REVERB_DELAY_FRAMES;
  const history = Array.from({ length: delay }, () => new Float64Array(BINS)); // ring of past powers
  const decay = Math.exp((-2 * 3 * Math.log(10) * ((delay * HOP) / SAMPLE_RATE)) / (rt60Ms / 1000));
  const late = new Float64Array(BINS);
  return new DdWienerFilter(pcm, gain, floorDb, 0.9, {
    next(power, f) {
      const old = history[f % delay]!; // frame f − delay's power
      for (let k = 0; k < BINS; k++) {
        late[k] = decay * old[k]! + 1e-12;
        old[k] = power[k]!;
      }
      return late;
    },
    save: () => history.map((h) => h.slice()),
    restore: (saved) => {
      for (let i = 0; i < delay; i++) history[i]!.set(saved[i]!);
    },
  });
}

/** The unwanted power of each STFT frame, and the state it keeps between frames. */
interface Interference {
  /** the unwanted power for frame f (never zero), given its power; frames come in order */
  next(power: Float64Array, f: number): Float64Array;
  save(): Float64Array[];
  restore(saved: Float64Array[]): void;
}

/** STFT frames between two saved states: PCM_WINDOW samples. */
const FRAMES_PER_SAVE = PCM_WINDOW / HOP;

/**
 * Every STFT frame's bins scaled by a decision-directed Wiener gain (Ephraim & Malah 1984) against the
 * unwanted power the interference names for it, floored at `floorDb`; then `gain` overall. Square-root
 * Hann analysis and synthesis at 50 % overlap: perfect reconstruction where the gain is 1.
 *
 * A window is computed on its own: the state the gains carry from frame to frame (the previous frame's
 * estimate, the interference's own) is saved every FRAMES_PER_SAVE frames as a pass first reaches them;
 * a window starts from the saved state before it, runs the frames up to it without synthesis (they only
 * move the state on), and overlap-adds its own — the same numbers as one pass over the whole recording.
 */
class DdWienerFilter implements WindowFilter {
  private readonly spectra: Spectra;
  private readonly fft = new Fft(FFT_SIZE);
  private readonly power = new Float64Array(BINS);
  /** |S^|² of the previous frame */
  private readonly previous = new Float64Array(BINS);
  /** the second half of the last synthesised frame, waiting for the next frame's first half */
  private readonly carry = new Float64Array(HOP);
  private readonly floor: number;
  private readonly scale: number;
  /** the state before frame k × FRAMES_PER_SAVE: the previous frame's estimate and the interference's */
  private readonly saved: { previous: Float64Array; interference: Float64Array[] }[];

  constructor(
    pcm: Pcm,
    gain: number,
    floorDb: number,
    private readonly alpha: number,
    private readonly interference: Interference,
  ) {
    this.spectra = new Spectra(pcm);
    this.floor = 10 ** (floorDb / 20);
    this.scale = (gain * 32768) / FFT_SIZE;
    this.saved = [{ previous: this.previous.slice(), interference: interference.save() }];
  }

  render(start: number, end: number): Float32Array {
    const out = new Float32Array(end - start);
    if (end <= start) return out;
    // frame f completes samples [(f − 1) × HOP, f × HOP): the window's first block needs the frame before it
    const firstBlock = Math.floor(start / HOP);
    const lastFrame = Math.floor((end - 1) / HOP) + 1;
    const k = Math.min(Math.floor(firstBlock / FRAMES_PER_SAVE), this.saved.length - 1);
    const state = this.saved[k]!;
    this.previous.set(state.previous);
    this.interference.restore(state.interference);
    const { re, im } = this.spectra;
    for (let f = k * FRAMES_PER_SAVE; f <= lastFrame; f++) {
      if (f % FRAMES_PER_SAVE === 0 && f / FRAMES_PER_SAVE === this.saved.length) {
        this.saved.push({ previous: this.previous.slice(), interference: this.interference.save() });
      }
      const synthesise = f >= firstBlock;
      this.gains(f, synthesise);
      if (!synthesise) continue;
      this.fft.transform(re, im, true);
      // the frame's first half completes samples [begin, begin + HOP); its second half waits for the next frame
      const begin = frameStart(f);
      for (let i = 0; i < HOP; i++) {
        const at = begin + i;
        const value = this.carry[i]! + re[i]! * SQRT_HANN[i]!;
        if (at >= start && at < end) out[at - start] = clip16(value * this.scale) / 32768;
        this.carry[i] = re[HOP + i]! * SQRT_HANN[HOP + i]!;
      }
    }
    return out;
  }

  /** Frame f's spectrum, its gains (moving the state on), and — to synthesise it — the gains applied. */
  private gains(f: number, apply: boolean): void {
    const { spectra, power, previous, alpha, floor } = this;
    const { re, im } = spectra;
    spectra.frame(f, power);
    const unwanted = this.interference.next(power, f);
    for (let k = 0; k < BINS; k++) {
      const n = unwanted[k]!;
      const posterior = power[k]! / n;
      const prior = alpha * (previous[k]! / n) + (1 - alpha) * Math.max(posterior - 1, 0);
      const g = Math.max(floor, prior / (1 + prior));
      previous[k] = g * g * power[k]!;
      if (!apply) continue;
      re[k]! *= g;
      im[k]! *= g;
      if (k > 0 && k < FFT_SIZE / 2) {
        re[FFT_SIZE - k]! *= g;
        im[FFT_SIZE - k]! *= g;
      }
    }
  }
}
