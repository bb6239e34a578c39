/**
 * Band-limited resampling (windowed sinc, Blackman window, 16 zero crossings each side, kernel looked up
 * from a 256-phase table): eSpeak's 22 050 Hz speech to a song's rate, a 44.1 kHz song to the 16 kHz the
 * analysis code measures at. When rate goes down the kernel is widened, so nothing above the new
 * Nyquist frequency folds back.
 */

const ZEROS = 16;
const PHASES = 256;
const TABLE = (() => {
  const n = ZEROS * PHASES;
  const t = new Float64Array(n + 2);
  for (let i = 0; i <= n; i++) {
    const x = i / PHASES;
    const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
    const w = 0.42 + 0.5 * Math.cos((Math.PI * x) / ZEROS) + 0.08 * Math.cos((2 * Math.PI * x) / ZEROS);
    t[i] = sinc * w;
  }
  return t;
})();

function kernel(x: number): number {
  const a = Math.abs(x) * PHASES;
  const i = Math.floor(a);
  if (i >= ZEROS * PHASES) return 0;
  const f = a - i;
  return TABLE[i]! * (1 - f) + TABLE[i + 1]! * f;
}

export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (fromRate === toRate || input.length === 0) return input.slice();
  const ratio = toRate / fromRate;
  const outLength = Math.max(1, Math.round(input.length * ratio));
  const out = new Float32Array(outLength);
  // Cut-off at the lower of the two Nyquist frequencies (a little under it).
  const scale = Math.min(1, ratio) * 0.97;
  const reach = ZEROS / scale;
  for (let j = 0; j < outLength; j++) {
    const centre = j / ratio;
    const from = Math.max(0, Math.ceil(centre - reach));
    const to = Math.min(input.length - 1, Math.floor(centre + reach));
    let sum = 0;
    for (let i = from; i <= to; i++) sum += input[i]! * kernel((i - centre) * scale);
    out[j] = sum * scale;
  }
  return out;
}
