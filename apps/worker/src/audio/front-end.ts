import { Fft } from "./features.ts";
import { type Pcm, pcmFrom, SAMPLE_RATE } from "./pcm.ts";
import type { EnergyProfile } from "./vad.ts";

/**
 * The speech front end (issue 29): what every engine hears. It measures the recording — noise floor,
 * speech level, signal-to-noise ratio, the noise's colour and steadiness, the bandwidth — and from
 * those decides, per recording, whether to clean it: noisy audio gets a Wiener filter driven by the
 * recording's own noise spectrum (measured in its pauses, so pink, brown or fan noise is removed as
 * well as white); clean audio is left untouched, because any enhancement costs a clean recording some
 * accuracy. Quiet speech is raised; loud speech is left as it is. bench/robustness.mjs measures every
 * choice here; speech/hear.ts is how recognition uses it.
 */

const FFT_SIZE = 512; // 32 ms at 16 kHz
const HOP = FFT_SIZE / 2;
const BINS = FFT_SIZE / 2 + 1;
const HZ_PER_BIN = SAMPLE_RATE / FFT_SIZE;

/** The front end's settings, each chosen by measurement (bench/robustness.mjs; `--tune` tries others). */
export const TUNING = {
  /** below this estimated SNR a recording is cleaned; above it, left as it is */
  enhanceBelowSnrDb: 20,
  /** …and only when its quiet frames are steady noise (p25 − p5 of frame energies, dB): reverberation tails are not */
  steadyNoiseSpreadDb: 6,
  /** speech is brought to this level (dBFS of its loud frames), within maxGainDb and without clipping */
  targetSpeechDb: -20,
  maxGainDb: 30,
  /** the Wiener filter never takes a bin down by more than this */
  gainFloorDb: -20,
  /** decision-directed a priori SNR smoothing (Ephraim & Malah) */
  ddAlpha: 0.9,
  /** the noise spectrum is taken this many dB stronger than measured (more suppression) */
  noiseOverDb: 0,
  /**
   * above this estimated reverberation time (ms) a recording that was not denoised gets its late
   * reverberation suppressed (clean speech estimates 100–200 ms here, a hall of RT60 0.5 s about 300)
   */
  dereverbAboveRt60Ms: 250,
  /** the estimate comes out short of the room's real RT60 (the direct sound falls faster): scaled up by this */
  rt60Scale: 1.5,
  /** the late-reverberation gain never takes a bin down by more than this */
  reverbFloorDb: -12,
  /**
   * telephone-band audio gets its upper band lifted by a high shelf from this frequency (Hz) by this much
   * (dB): codecs and phone lines leave the 2.5–4 kHz consonant cues weak, and moonshine then drops final
   * sibilants ("Americans" → "American") — 0 dB turns it off
   */
  narrowBandShelfHz: 2500,
  narrowBandShelfDb: 6,
};
export type Tuning = typeof TUNING;
export const ENHANCE_BELOW_SNR_DB = TUNING.enhanceBelowSnrDb;
/** Loud frames under this level are no speech at all (digital silence, dither): never amplified. */
const SILENCE_DB = -75;

export interface RecordingFacts {
  /** the noise floor: 10th percentile of 10 ms frame energies (dBFS) */
  noiseDb: number;
  /** the speech level: 95th percentile of frame energies (dBFS) */
  speechDb: number;
  /** speech level minus noise floor (dB) */
  snrDb: number;
  /** the highest frequency the speech reaches (Hz): ~3 400 for a phone line, ~8 000 for wideband */
  bandwidthHz: number;
  /** the noise spectrum's slope between 250 Hz and 4 kHz (dB per octave): ~0 white, ~−3 pink, ~−6 brown */
  noiseTiltDbPerOctave: number;
  /** how unsteady the quiet frames are: p25 − p5 of frame energies (dB); small for steady noise */
  noiseSpreadDb: number;
  /** estimated reverberation time (ms; 0 when there were too few speech endings to tell) */
  rt60Ms: number;
}

/** What the front end did to a recording (stored with the transcript; shown to users and operators). */
export interface FrontEndReport {
  facts: RecordingFacts;
  /** noise reduced (the Wiener filter ran) */
  denoised: boolean;
  /** late reverberation suppressed (a reverberant room, not noisy) */
  dereverberated: boolean;
  /**
   * telephone-band audio (nothing above ~4 kHz): said, and its upper band lifted (TUNING.narrowBandShelfDb)
   * unless it was denoised or dereverberated
   */
  narrowBand: boolean;
  /** the gain applied to bring speech to one level (dB; 0 when none) */
  gainDb: number;
  /** the noise's colour in words, when it was reduced */
  noise?: "white" | "pink" | "brown";
}

function percentile(sorted: Float32Array, p: number): number {
  if (sorted.length === 0) return -100;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(p * (sorted.length - 1))))]!;
}

/** The square root of a periodic Hann window: at 50 % overlap analysis × synthesis sums to one. */
const SQRT_HANN = Float64Array.from({ length: FFT_SIZE }, (_, i) =>
  Math.sqrt(0.5 - 0.5 * Math.cos((2 * Math.PI * i) / FFT_SIZE)),
);

/**
 * Power spectra of STFT frames, one at a time. Frame f covers samples [(f − 1) × HOP, (f + 1) × HOP):
 * the first and last frames hang over the ends (zeros there), so every sample lies under two frames.
 */
class Spectra {
  private readonly fft = new Fft(FFT_SIZE);
  readonly re = new Float64Array(FFT_SIZE);
  readonly im = new Float64Array(FFT_SIZE);
  readonly frames: number;
  private readonly scale: number;

  constructor(private readonly samples: Int16Array | Float32Array) {
    this.frames = Math.ceil(samples.length / HOP) + 1;
    this.scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  }

  /** Transforms frame `f` into (re, im) and writes its power per bin into `power`. */
  frame(f: number, power: Float64Array): void {
    const { re, im, samples, scale } = this;
    const start = frameStart(f);
    for (let i = 0; i < FFT_SIZE; i++) {
      re[i] = (samples[start + i] ?? 0) * scale * SQRT_HANN[i]!;
      im[i] = 0;
    }
    this.fft.transform(re, im);
    for (let k = 0; k < BINS; k++) power[k] = re[k]! * re[k]! + im[k]! * im[k]!;
  }
}

const frameStart = (f: number) => (f - 1) * HOP;

/** Energy (dBFS) of STFT frame f, from the 10 ms profile frames it covers. */
function frameDb(profile: EnergyProfile, f: number): number {
  const first = Math.max(0, Math.floor(frameStart(f) / 160));
  const last = Math.min(profile.db.length, Math.ceil((frameStart(f) + FFT_SIZE) / 160));
  let sum = 0;
  for (let i = first; i < last; i++) sum += 10 ** (profile.db[i]! / 10);
  return 10 * Math.log10(sum / Math.max(1, last - first) + 1e-10);
}

/**
 * The recording's noise spectrum (mean power per bin over its quietest 15 % of frames) and speech
 * spectrum (its loudest 20 %), from at most ~3 000 frames spread over the whole recording.
 */
function spectraOf(pcm: Pcm, profile: EnergyProfile): { noise: Float64Array; speech: Float64Array } {
  const spectra = new Spectra(pcm.samples);
  const stride = Math.max(1, Math.floor(spectra.frames / 3000));
  const picked: { f: number; db: number }[] = [];
  for (let f = 0; f < spectra.frames; f += stride) picked.push({ f, db: frameDb(profile, f) });
  picked.sort((a, b) => a.db - b.db);
  const noise = new Float64Array(BINS);
  const speech = new Float64Array(BINS);
  const power = new Float64Array(BINS);
  const quiet = picked.slice(0, Math.max(1, Math.floor(picked.length * 0.15)));
  const loud = picked.slice(Math.floor(picked.length * 0.8));
  for (const [set, into] of [
    [quiet, noise],
    [loud, speech],
  ] as const) {
    for (const { f } of set) {
      spectra.frame(f, power);
      for (let k = 0; k < BINS; k++) into[k]! += power[k]! / set.length;
    }
  }
  return { noise, speech };
}

const toDb = (power: number) => 10 * Math.log10(power + 1e-20);

/** Least-squares slope of the noise spectrum in dB against log2(frequency), 250 Hz – 4 kHz. */
function tiltDbPerOctave(noise: Float64Array): number {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let k = Math.ceil(250 / HZ_PER_BIN); k <= Math.floor(4000 / HZ_PER_BIN); k++) {
    const x = Math.log2(k * HZ_PER_BIN);
    const y = toDb(noise[k]!);
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/** The highest frequency where the (smoothed) speech spectrum is within 45 dB of its peak (Hz). */
function bandwidthOf(speech: Float64Array): number {
  const db = Array.from(speech, toDb);
  // smooth over ±4 bins (±125 Hz) so single harmonics do not decide
  const smooth = db.map((_, k) => {
    let s = 0;
    let c = 0;
    for (let j = Math.max(1, k - 4); j <= Math.min(BINS - 1, k + 4); j++) {
      s += db[j]!;
      c++;
    }
    return s / c;
  });
  const peak = Math.max(...smooth.slice(Math.ceil(200 / HZ_PER_BIN)));
  for (let k = BINS - 2; k > 0; k--) if (smooth[k]! > peak - 45) return Math.round(k * HZ_PER_BIN);
  return 0;
}

/**
 * Measures a recording (cheap: a few thousand FFT frames at most, whatever its length); also returns
 * the noise spectrum the Wiener filter works against.
 */
export function measureRecording(pcm: Pcm, profile: EnergyProfile): { facts: RecordingFacts; noise: Float64Array } {
  const sorted = Float32Array.from(profile.db).sort();
  const noiseDb = percentile(sorted, 0.1);
  const speechDb = percentile(sorted, 0.95);
  const { noise, speech } = spectraOf(pcm, profile);
  const facts = {
    noiseDb: round1(noiseDb),
    speechDb: round1(speechDb),
    snrDb: round1(speechDb - noiseDb),
    bandwidthHz: bandwidthOf(speech),
    noiseTiltDbPerOctave: round1(tiltDbPerOctave(noise)),
    noiseSpreadDb: round1(percentile(sorted, 0.25) - percentile(sorted, 0.05)),
    rt60Ms: estimateRt60Ms(profile, noiseDb),
  };
  return { facts, noise };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export interface FrontEndOptions {
  /** false: measure and report only (the bench's "without" column) */
  enhance?: boolean;
  /** other settings to try (bench/robustness.mjs --tune) */
  tuning?: Partial<Tuning>;
}

/**
 * Runs the front end: returns the audio the engine should hear (a new Pcm, or `pcm` itself when
 * nothing was changed) and what was done. The recording `pcm` is never modified.
 */
export function applyFrontEnd(
  pcm: Pcm,
  profile: EnergyProfile,
  options: FrontEndOptions = {},
): { pcm: Pcm; report: FrontEndReport } {
  const tune = { ...TUNING, ...options.tuning };
  const { facts, noise } = measureRecording(pcm, profile);
  const narrowBand = facts.bandwidthHz > 0 && facts.bandwidthHz < 4200;
  const denoise =
    options.enhance !== false &&
    facts.snrDb < tune.enhanceBelowSnrDb &&
    facts.noiseSpreadDb < tune.steadyNoiseSpreadDb &&
    pcm.length >= FFT_SIZE * 4;
  const dereverb =
    options.enhance !== false &&
    !denoise &&
    facts.rt60Ms > tune.dereverbAboveRt60Ms &&
    facts.snrDb >= tune.enhanceBelowSnrDb - 5 &&
    pcm.length >= FFT_SIZE * 4;
  // Loudness: quiet speech up to targetSpeechDb, never more than maxGainDb, never clipping.
  const peak = peakOf(pcm.samples);
  const headroomDb = peak > 0 ? -20 * Math.log10(peak) - 0.5 : tune.maxGainDb;
  // Only ever up: loud speech is left as it is (turning it down cost a clean recording words).
  let gainDb = Math.max(0, Math.min(tune.maxGainDb, tune.targetSpeechDb - facts.speechDb, headroomDb));
  // Nothing to level: digital silence, or too small a change to matter.
  if (options.enhance === false || peak === 0 || facts.speechDb < SILENCE_DB || gainDb < 3) gainDb = 0;
  const report: FrontEndReport = {
    facts,
    denoised: denoise,
    dereverberated: dereverb,
    narrowBand,
    gainDb: round1(gainDb),
  };
  if (denoise) report.noise = colourOf(facts.noiseTiltDbPerOctave);
  // Not on top of the noise or reverberation filters: after dereverberation the lift cost JFK words
  // (reverberation 4.5 → 5.7 % over 8 draws).
  const lift = options.enhance !== false && narrowBand && !denoise && !dereverb && tune.narrowBandShelfDb > 0;
  if (!denoise && !dereverb && !lift && gainDb === 0) return { pcm, report };
  const gain = 10 ** (gainDb / 20);
  const out = denoise
    ? wienerFilter(pcm, noise, gain, tune)
    : dereverb
      ? suppressLateReverb(pcm, facts.rt60Ms * tune.rt60Scale, gain, tune.reverbFloorDb)
      : scaled(pcm.samples, gain);
  if (lift) highShelfInPlace(out, tune.narrowBandShelfHz, tune.narrowBandShelfDb);
  return { pcm: pcmFrom(out), report };
}

/**
 * A high shelf (Audio EQ Cookbook, R. Bristow-Johnson; slope 1) over 16-bit samples in place: everything
 * above `hz` raised by `db`, clipped.
 */
function highShelfInPlace(samples: Int16Array, hz: number, db: number): void {
  const a = 10 ** (db / 40);
  const w0 = (2 * Math.PI * hz) / SAMPLE_RATE;
  const cos = Math.cos(w0);
  const alpha = (Math.sin(w0) / 2) * Math.SQRT2; // slope S = 1
  const root = 2 * Math.sqrt(a) * alpha;
  const b0 = a * (a + 1 + (a - 1) * cos + root);
  const b1 = -2 * a * (a - 1 + (a + 1) * cos);
  const b2 = a * (a + 1 + (a - 1) * cos - root);
  const a0 = a + 1 - (a - 1) * cos + root;
  const a1 = 2 * (a - 1 - (a + 1) * cos);
  const a2 = a + 1 - (a - 1) * cos - root;
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i]!;
    const y = (b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2) / a0;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    samples[i] = clip16(y);
  }
}

function colourOf(tilt: number): "white" | "pink" | "brown" {
  if (tilt > -1.5) return "white";
  if (tilt > -4.5) return "pink";
  return "brown";
}

function peakOf(samples: Int16Array | Float32Array): number {
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  let peak = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = Math.abs(samples[i]!);
    if (v > peak) peak = v;
  }
  return peak * scale;
}

/** 16-bit samples in shared memory (as decodeToPcm makes them), `gain` applied, clipped. */
function scaled(samples: Int16Array | Float32Array, gain: number): Int16Array {
  const out = new Int16Array(new SharedArrayBuffer(samples.length * 2));
  const scale = samples instanceof Int16Array ? gain : gain * 32768;
  for (let i = 0; i < samples.length; i++) out[i] = clip16(samples[i]! * scale);
  return out;
}

const clip16 = (v: number) => (v > 32767 ? 32767 : v < -32768 ? -32768 : Math.round(v));

/**
 * STFT Wiener filter with a decision-directed a priori SNR (Ephraim & Malah 1984) against the
 * recording's own noise spectrum; gains floored at tuning.gainFloorDb.
 */
function wienerFilter(pcm: Pcm, measuredNoise: Float64Array, gain: number, tune: Tuning): Int16Array {
  const over = 10 ** (tune.noiseOverDb / 10);
  const noise = measuredNoise.map((p) => p * over + 1e-12);
  return ddWienerFilter(pcm.samples, gain, tune.gainFloorDb, tune.ddAlpha, () => noise);
}

/** Reverberation arriving later than this after the direct sound (3 STFT hops, 48 ms) counts as late. */
const LATE_REVERB_DELAY_FRAMES = 3;

/**
 * Late-reverberation suppression (Lebart, Boucher & Denbigh 2001): the late reverberant power of a bin
 * is its power LATE_REVERB_DELAY_FRAMES earlier, decayed as a room of `rt60Ms` decays in that time; it
 * is removed by the same decision-directed Wiener gain as noise, floored at `floorDb`.
 */
function suppressLateReverb(pcm: Pcm, rt60Ms: number, gain: number, floorDb: number): Int16Array {
  const delay = LATE_REVERB_DELAY_FRAMES;
  const history = Array.from({ length: delay }, () => new Float64Array(BINS)); // ring of past powers
  const decay = Math.exp((-2 * 3 * Math.log(10) * ((delay * HOP) / SAMPLE_RATE)) / (rt60Ms / 1000));
  const late = new Float64Array(BINS);
  return ddWienerFilter(pcm.samples, gain, floorDb, 0.9, (power, f) => {
    const old = history[f % delay]!; // frame f − delay's power
    for (let k = 0; k < BINS; k++) {
      late[k] = decay * old[k]! + 1e-12;
      old[k] = power[k]!;
    }
    return late;
  });
}

/**
 * Every STFT frame's bins scaled by a decision-directed Wiener gain (Ephraim & Malah 1984) against the
 * unwanted power `interference(power, f)` names for frame f (never zero), floored at `floorDb`; then
 * `gain` overall. Square-root Hann analysis and synthesis at 50 % overlap: perfect reconstruction where
 * the gain is 1.
 */
function ddWienerFilter(
  samples: Int16Array | Float32Array,
  gain: number,
  floorDb: number,
  alpha: number,
  interference: (power: Float64Array, f: number) => Float64Array,
): Int16Array {
  const spectra = new Spectra(samples);
  // Overlap-add with one frame's second half carried over: memory stays a few KB whatever the length
  // (a float buffer of the whole output would be 1.4 GB for 3 hours).
  const result = new Int16Array(new SharedArrayBuffer(samples.length * 2));
  const carry = new Float64Array(HOP);
  const scale = (gain * 32768) / FFT_SIZE;
  const power = new Float64Array(BINS);
  const previous = new Float64Array(BINS); // |S^|² of the previous frame
  const floor = 10 ** (floorDb / 20);
  const fft = new Fft(FFT_SIZE);
  const { re, im } = spectra;
  for (let f = 0; f < spectra.frames; f++) {
    spectra.frame(f, power);
    const unwanted = interference(power, f);
    for (let k = 0; k < BINS; k++) {
      const n = unwanted[k]!;
      const posterior = power[k]! / n;
      const prior = alpha * (previous[k]! / n) + (1 - alpha) * Math.max(posterior - 1, 0);
      const g = Math.max(floor, prior / (1 + prior));
      previous[k] = g * g * power[k]!;
      re[k]! *= g;
      im[k]! *= g;
      if (k > 0 && k < FFT_SIZE / 2) {
        re[FFT_SIZE - k]! *= g;
        im[FFT_SIZE - k]! *= g;
      }
    }
    fft.transform(re, im, true);
    // the frame's first half completes samples [start, start + HOP); its second half waits for the next frame
    const start = frameStart(f);
    for (let i = 0; i < HOP; i++) {
      const at = start + i;
      const value = carry[i]! + re[i]! * SQRT_HANN[i]!;
      if (at >= 0 && at < samples.length) result[at] = clip16(value * scale);
      carry[i] = re[HOP + i]! * SQRT_HANN[HOP + i]!;
    }
  }
  return result;
}

/**
 * A blind estimate of the room's reverberation time (RT60, ms) from the 10 ms frame energies: where
 * speech stops, energy can fall no faster than the room lets it decay, so the steepest falls (the
 * least-squares slope over 100 ms windows that start well above the noise floor) give the decay rate.
 */
function estimateRt60Ms(profile: EnergyProfile, noiseDb: number): number {
  const db = profile.db;
  const W = 10;
  const slopes: number[] = [];
  const mx = (W - 1) / 2;
  let sxx = 0;
  for (let j = 0; j < W; j++) sxx += (j - mx) ** 2;
  for (let i = 0; i + W <= db.length; i++) {
    if (db[i]! < noiseDb + 20 || db[i + W - 1]! < noiseDb + 3) continue;
    let my = 0;
    for (let j = 0; j < W; j++) my += db[i + j]!;
    my /= W;
    let sxy = 0;
    for (let j = 0; j < W; j++) sxy += (j - mx) * (db[i + j]! - my);
    const slope = sxy / sxx / 0.01; // dB per second
    if (slope < 0) slopes.push(-slope);
  }
  if (slopes.length < 20) return 0;
  slopes.sort((a, b) => b - a);
  const steep = slopes[Math.floor(slopes.length * 0.02)]!;
  return Math.round((60 / steep) * 1000);
}
