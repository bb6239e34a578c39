/**
 * A waveform's outline: the channels mixed, cut into `buckets` equal slices, each slice's largest
 * absolute sample (0..1). What the before/after player draws.
 */
export function peaksOf(channels: readonly Float32Array[], buckets: number): number[] {
  const length = channels[0]?.length ?? 0;
  if (length === 0 || buckets <= 0) return [];
  const out = new Array<number>(buckets).fill(0);
  const size = length / buckets;
  for (let b = 0; b < buckets; b += 1) {
    const from = Math.floor(b * size);
    const to = Math.max(from + 1, Math.floor((b + 1) * size));
    let peak = 0;
    for (let i = from; i < to && i < length; i += 1) {
      let sum = 0;
      for (const ch of channels) sum += ch[i] ?? 0;
      const v = Math.abs(sum / channels.length);
      if (v > peak) peak = v;
    }
    out[b] = Math.min(1, peak);
  }
  return out;
}
