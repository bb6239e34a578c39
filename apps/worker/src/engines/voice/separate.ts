import FFT from "fft.js";

/**
 * Vocals out of a stereo song, without a neural model: centre-channel extraction.
 *
 * In nearly every stereo mix the lead vocal is panned dead centre — the same signal in both channels —
 * while the instruments are spread left and right. So, per STFT bin (frames of ~46 ms, 75 % overlap,
 * Hann windows for analysis and synthesis), the similarity of the two channels,
 *     ψ = 2·Re(L·R̄) / (|L|² + |R|²)   (1 when L = R in magnitude and phase; 0 or below when they differ),
 * says how much of that bin is centre: the mask rises smoothly from 0 at ψ = 0.5 to 1 at ψ = 0.95
 * (after Avendano & Jot 2002, with the phase included so that a wide instrument with equal levels but
 * different phases is not taken for a voice), is smoothed over neighbouring bins against "musical
 * noise", and is limited to the vocal band (full from 120 Hz to 7 kHz, fading out by 80 Hz and 9 kHz:
 * the kick, the bass and the cymbals are often centred too). vocals = mask × (L + R) / 2, overlap-added;
 * the accompaniment is the original minus the vocals, per channel, so vocals + accompaniment gives the
 * song back exactly.
 *
 * What it cannot do: centred instruments inside the vocal band (a centred piano, a snare) come out with
 * the voice, and reverberation on the voice (different in each channel) stays in the accompaniment.
 *
 * Mono input (both channels the same, or one channel): nothing tells the voice from the band, so it is
 * all treated as the voice and `mono` is true — the accompaniment is silent. convertSong then moves the
 * key of the whole recording, which keeps the music in tune with the voice.
 */

export interface Separation {
  vocals: Float32Array;
  accompaniment: [Float32Array, Float32Array];
  /** the channels were the same: everything is in `vocals` */
  mono: boolean;
}

const LOW_EDGE_HZ = [80, 120] as const;
const HIGH_EDGE_HZ = [7000, 9000] as const;
const PSI_FROM = 0.5;
const PSI_FULL = 0.95;

export function separateCentre(left: Float32Array, right: Float32Array, sampleRate: number): Separation {
  const length = Math.min(left.length, right.length);
  const kind = channelKind(left, right, length);
  if (kind !== "stereo") {
    const vocals = new Float32Array(length);
    // the same in both: their mean; one silent: the other one, at its own level
    for (let i = 0; i < length; i++) vocals[i] = kind === "same" ? (left[i]! + right[i]!) / 2 : left[i]! + right[i]!;
    return { vocals, accompaniment: [new Float32Array(length), new Float32Array(length)], mono: true };
  }
  let n = 256;
  while (n < sampleRate * 0.046) n *= 2;
  const hop = n / 4;
  const window = Float64Array.from({ length: n }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n));
  // Hann² at 75 % overlap sums to 1.5: divide it out.
  const olaGain = 1 / 1.5;
  const bins = n / 2 + 1;
  const band = Float64Array.from({ length: bins }, (_, k) => bandGain((k * sampleRate) / n));

  const fft = new FFT(n);
  const inL = new Float64Array(n);
  const inR = new Float64Array(n);
  const specL = fft.createComplexArray() as number[];
  const specR = fft.createComplexArray() as number[];
  const centre = fft.createComplexArray() as number[];
  const back = fft.createComplexArray() as number[];
  const mask = new Float64Array(bins);
  const smoothed = new Float64Array(bins);
  const vocals = new Float32Array(length);

  // Frames start half a window before the song so that its first samples are fully covered.
  for (let start = -n + hop; start < length; start += hop) {
    for (let i = 0; i < n; i++) {
      const at = start + i;
      const inside = at >= 0 && at < length;
      inL[i] = inside ? left[at]! * window[i]! : 0;
      inR[i] = inside ? right[at]! * window[i]! : 0;
    }
    fft.realTransform(specL, inL);
    fft.realTransform(specR, inR);
    for (let k = 0; k < bins; k++) {
      const lr = specL[2 * k]!;
      const li = specL[2 * k + 1]!;
      const rr = specR[2 * k]!;
      const ri = specR[2 * k + 1]!;
      const power = lr * lr + li * li + rr * rr + ri * ri;
      const psi = power > 1e-20 ? (2 * (lr * rr + li * ri)) / power : 0;
      const x = Math.min(1, Math.max(0, (psi - PSI_FROM) / (PSI_FULL - PSI_FROM)));
      mask[k] = x * x * (3 - 2 * x) * band[k]!;
    }
    for (let k = 0; k < bins; k++) {
      smoothed[k] = 0.25 * (mask[k - 1] ?? mask[k]!) + 0.5 * mask[k]! + 0.25 * (mask[k + 1] ?? mask[k]!);
    }
    centre.fill(0);
    for (let k = 0; k < bins; k++) {
      const re = 0.5 * (specL[2 * k]! + specR[2 * k]!) * smoothed[k]!;
      const im = 0.5 * (specL[2 * k + 1]! + specR[2 * k + 1]!) * smoothed[k]!;
      centre[2 * k] = re;
      centre[2 * k + 1] = im;
      if (k > 0 && k < n / 2) {
        centre[2 * (n - k)] = re;
        centre[2 * (n - k) + 1] = -im;
      }
    }
    fft.inverseTransform(back, centre);
    for (let i = 0; i < n; i++) {
      const at = start + i;
      if (at >= 0 && at < length) vocals[at]! += back[2 * i]! * window[i]! * olaGain;
    }
  }
  const accL = new Float32Array(length);
  const accR = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    accL[i] = left[i]! - vocals[i]!;
    accR[i] = right[i]! - vocals[i]!;
  }
  return { vocals, accompaniment: [accL, accR], mono: false };
}

/** 1 inside the vocal band, raised-cosine edges outside it. */
function bandGain(hz: number): number {
  const [l0, l1] = LOW_EDGE_HZ;
  const [h0, h1] = HIGH_EDGE_HZ;
  if (hz <= l0 || hz >= h1) return 0;
  if (hz < l1) return 0.5 - 0.5 * Math.cos((Math.PI * (hz - l0)) / (l1 - l0));
  if (hz > h0) return 0.5 + 0.5 * Math.cos((Math.PI * (hz - h0)) / (h1 - h0));
  return 1;
}

/** Whether the channels are the same (to −60 dB), one of them is silent (−60 dB), or a real stereo pair. */
function channelKind(left: Float32Array, right: Float32Array, length: number): "same" | "one" | "stereo" {
  let diff = 0;
  let sum = 0;
  let l2 = 0;
  let r2 = 0;
  for (let i = 0; i < length; i++) {
    const d = left[i]! - right[i]!;
    diff += d * d;
    sum += left[i]! * left[i]! + right[i]! * right[i]!;
    l2 += left[i]! * left[i]!;
    r2 += right[i]! * right[i]!;
  }
  if (sum === 0 || diff <= 1e-6 * sum) return "same";
  return l2 <= 1e-6 * sum || r2 <= 1e-6 * sum ? "one" : "stereo";
}
