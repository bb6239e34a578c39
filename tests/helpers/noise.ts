import { Fft } from "../../apps/worker/src/audio/features.ts";
/**
 * Reproducible randomness for tests and benches: the same seed gives the same numbers on every machine
 * and run (mulberry32), and the noises made from it (white, pink) for degraded-speech tests.
 */

/** A deterministic generator of numbers in [0, 1) (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` samples of white Gaussian noise (unit variance), Box–Muller. */
export function whiteNoise(n: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  return Float32Array.from(
    { length: n },
    () => Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random()),
  );
}

/** `n` samples of pink (−3 dB/octave) noise: Paul Kellet's refined filter on white noise. */
export function pinkNoise(n: number, seed: number): Float32Array {
  const white = whiteNoise(n, seed);
  const out = new Float32Array(n);
  const b = [0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < n; i++) {
    const w = white[i]!;
    b[0] = 0.99886 * b[0]! + w * 0.0555179;
    b[1] = 0.99332 * b[1]! + w * 0.0750759;
    b[2] = 0.969 * b[2]! + w * 0.153852;
    b[3] = 0.8665 * b[3]! + w * 0.3104856;
    b[4] = 0.55 * b[4]! + w * 0.5329522;
    b[5] = -0.7616 * b[5]! - w * 0.016898;
    out[i] = b[0]! + b[1]! + b[2]! + b[3]! + b[4]! + b[5]! + b[6]! + w * 0.5362;
    b[6] = w * 0.115926;
  }
  return out;
}

function gaussian(random: () => number): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-12, random()))) * Math.cos(2 * Math.PI * random());
}

/**
 * A synthetic room as a lecture hall or meeting room sounds to a nearby microphone: the direct sound,
 * then exponentially decaying noise (RT60 `rt60S`, 0.5 s by default) holding half the direct sound's
 * energy (direct-to-reverberant ratio +3 dB), convolved by FFT; peak-normalised to 0.7. 16 kHz.
 */
export function roomReverb(speech: Float32Array, seed: number, rt60S = 0.5): Float32Array {
  const RATE = 16_000;
  const random = seededRandom(seed);
  const len = Math.round(rt60S * RATE);
  const ir = new Float64Array(len);
  ir[0] = 1;
  let tail = 0;
  const start = Math.round(0.004 * RATE);
  for (let i = start; i < len; i++) {
    ir[i] = gaussian(random) * 10 ** ((-3 * i) / len);
    tail += ir[i]! ** 2;
  }
  for (let i = start; i < len; i++) ir[i]! *= Math.sqrt(0.5 / tail);
  let size = 1;
  while (size < speech.length + len) size <<= 1;
  const fft = new Fft(size);
  const ar = new Float64Array(size);
  const ai = new Float64Array(size);
  const br = new Float64Array(size);
  const bi = new Float64Array(size);
  ar.set(speech);
  br.set(ir);
  fft.transform(ar, ai);
  fft.transform(br, bi);
  for (let k = 0; k < size; k++) {
    const r = ar[k]! * br[k]! - ai[k]! * bi[k]!;
    const i = ar[k]! * bi[k]! + ai[k]! * br[k]!;
    ar[k] = r;
    ai[k] = i;
  }
  fft.transform(ar, ai, true);
  const out = Float32Array.from({ length: speech.length }, (_, i) => ar[i]! / size);
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  return out.map((v) => (v / peak) * 0.7);
}
