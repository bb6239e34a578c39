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
