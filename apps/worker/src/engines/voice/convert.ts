import { stretchAndShift } from "./rubberband.ts";
import { type Separation, separateCentre } from "./separate.ts";

/**
 * Song voice conversion (issue 20): the vocals are taken out of the song (separate.ts), moved by
 * `semitones` with Rubber Band — formants kept, then scaled by `formantScale` (1 = the singer's own,
 * 1.1 = a smaller vocal tract), never time-stretched — and mixed back over the accompaniment. The song's
 * length and tempo do not change: every output channel is exactly as long as the input.
 *
 * By default only the vocals move, as asked. Moved by anything but whole octaves they no longer fit the
 * band's key; `shiftAccompaniment` moves the accompaniment by the same interval (without formant
 * correction: instruments have none to keep) so the song stays in tune in its new key. A mono song has
 * no separable accompaniment (separate.ts): the whole recording is moved, which stays in tune.
 */

export interface ConvertOptions {
  semitones: number;
  /** the vocals' formants relative to the singer's (default 1) */
  formantScale?: number;
  /** move the accompaniment by the same interval (default false) */
  shiftAccompaniment?: boolean;
  /** the song already split (a configured separator, remote.ts); default: centre-channel extraction */
  separation?: Separation;
  /**
   * Moves the vocals instead of Rubber Band (a configured converter, remote.ts): given the separated
   * vocals, answers them sung in the target voice and key, as long as they were. `formantScale` is then unused.
   */
  convertVocals?: (vocals: Float32Array) => Promise<Float32Array>;
  onProgress?: (fraction: number) => void;
}

export async function convertSong(
  left: Float32Array,
  right: Float32Array,
  sampleRate: number,
  opts: ConvertOptions,
): Promise<{ left: Float32Array; right: Float32Array; vocals: Float32Array }> {
  if (!Number.isFinite(opts.semitones)) throw new RangeError(`convertSong: semitones ${opts.semitones}`);
  const length = Math.min(left.length, right.length);
  const pitchScale = 2 ** (opts.semitones / 12);
  const separation = opts.separation ?? separateCentre(left.subarray(0, length), right.subarray(0, length), sampleRate);
  opts.onProgress?.(0.25);
  const [vocals] = opts.convertVocals
    ? [await opts.convertVocals(separation.vocals)]
    : await stretchAndShift([separation.vocals], sampleRate, { pitchScale, formantScale: opts.formantScale ?? 1 });
  opts.onProgress?.(opts.shiftAccompaniment ? 0.6 : 0.9);
  let [accL, accR] = separation.accompaniment;
  if (opts.shiftAccompaniment && !separation.mono && opts.semitones !== 0) {
    [accL, accR] = (await stretchAndShift([accL, accR], sampleRate, { pitchScale })) as [Float32Array, Float32Array];
  }
  const outL = new Float32Array(length);
  const outR = new Float32Array(length);
  let peak = 0;
  for (let i = 0; i < length; i++) {
    outL[i] = accL[i]! + vocals![i]!;
    outR[i] = accR[i]! + vocals![i]!;
    peak = Math.max(peak, Math.abs(outL[i]!), Math.abs(outR[i]!));
  }
  // A moved voice can peak higher than the original did: scale down rather than clip.
  if (peak > 0.99) {
    const gain = 0.99 / peak;
    for (let i = 0; i < length; i++) {
      outL[i]! *= gain;
      outR[i]! *= gain;
      vocals![i]! *= gain;
    }
  }
  opts.onProgress?.(1);
  return { left: outL, right: outR, vocals: vocals! };
}
