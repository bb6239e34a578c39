import {
  BINS,
  FFT_SIZE,
  frameStart,
  highShelf,
  levelled,
  Spectra,
  suppressLateReverb,
  wienerFilter,
} from "./front-end-filters.ts";
import { computedPcm, PCM_WINDOW, type Pcm, SAMPLE_RATE } from "./pcm.ts";
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
  // scattered frames: read a frame's worth at a time (aligned, so a frame straddles at most two reads)
  const spectra = new Spectra(pcm, 2 * FFT_SIZE);
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
 * nothing was changed) and what was done. The recording `pcm` is never modified, and read window by
 * window. The new Pcm holds no copy of the recording: its `slice` computes the window asked for from the
 * recording (audio/front-end-filters.ts: a 3-hour copy would be 346 MB more).
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
  const peak = peakOf(pcm);
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
  const filter = denoise
    ? wienerFilter(pcm, noise, gain, tune)
    : dereverb
      ? suppressLateReverb(pcm, facts.rt60Ms * tune.rt60Scale, gain, tune.reverbFloorDb)
      : levelled(pcm, gain, lift ? highShelf(tune.narrowBandShelfHz, tune.narrowBandShelfDb) : undefined);
  return { pcm: computedPcm(pcm.length, (start, end) => filter.render(start, end)), report };
}

function colourOf(tilt: number): "white" | "pink" | "brown" {
  if (tilt > -1.5) return "white";
  if (tilt > -4.5) return "pink";
  return "brown";
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

/** The largest magnitude of a sample (read window by window). */
function peakOf(pcm: Pcm): number {
  let peak = 0;
  for (let at = 0; at < pcm.length; at += PCM_WINDOW) {
    const window = pcm.slice(at, at + PCM_WINDOW);
    for (let i = 0; i < window.length; i++) {
      const v = Math.abs(window[i]!);
      if (v > peak) peak = v;
    }
  }
  return peak;
}
