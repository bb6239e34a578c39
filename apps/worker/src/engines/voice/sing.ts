import type { TuneNote } from "@yuelu/contracts/tunes";
import { renderAccompaniment } from "./accompaniment.ts";
import { midiToHz, pitchPercentile, trackPitch } from "./pitch.ts";
import { stretchAlongPitch } from "./rubberband.ts";
import { renderWithSoundfont } from "./soundfont.ts";

/**
 * "AI sings for you" (issue 20): a voice that can only speak made to sing. Each melody note gets one
 * syllable, spoken by `say`; its silence is trimmed, its pitch measured, and Rubber Band (formants
 * kept, so the voice stays the speaker's) stretches it to the note's length and moves it to the note's
 * pitch. A spoken syllable glides (intonation): the pitch correction follows the syllable's own contour,
 * so the sung note comes out level. Notes are placed at their onsets with short fades and mixed over the
 * accompaniment: a General MIDI piano from the sound font `soundfont` names (soundfont.ts), or the
 * built-in synthesiser (accompaniment.ts) where there is none.
 */

export interface SingInput {
  melody: TuneNote[];
  accompaniment: TuneNote[];
  bpm: number;
  /** one per melody note */
  syllables: string[];
  /** semitones, −12..12, applied to melody and accompaniment */
  keyShift: number;
  /** ×0.5..2 (2 = twice as fast) */
  tempo: number;
  sampleRate: number;
  /** the .sf2/.sf3 file the accompaniment is played on (runtime findSoundfont); none: the built-in synthesiser */
  soundfont?: string | undefined;
  /** speech of one syllable at sampleRate */
  say: (syllable: string) => Promise<Float32Array>;
  onProgress?: (fraction: number) => void;
}

export interface SungSong {
  mix: Float32Array;
  vocals: Float32Array;
  /** the melody's notes in seconds and Hz, after key shift and tempo */
  notes: { start: number; end: number; hz: number }[];
}

/** the sung part of a note: the rest is a breath before the next (articulation) */
const LEGATO = 0.92;
const FADE_IN_S = 0.008;
const FADE_OUT_S = 0.03;
/** frames (5 ms) quieter than the syllable's loudest by this much are trimmed from its ends */
const TRIM_DB = 40;
/** the pitch contour's frame (ms) */
const CURVE_HOP_MS = 5;
/**
 * A pitch change reaches Rubber Band's output a little late: each correction is taken from the contour
 * this far ahead. Measured over the built-in tunes sung by eSpeak at 16, 22.05 and 44.1 kHz: notes within
 * 50 cents went from 86–100 % (none) to 90–100 % (17.5 ms); 35 ms and more made it worse again.
 */
const LOOKAHEAD_S = 0.0175;
/** how far (ratio) a frame's pitch correction may stray from the syllable's as a whole (±4 semitones) */
const MAX_BEND = 2 ** (4 / 12);
/** vocals' and accompaniment's levels in the mix (RMS, dBFS) */
const VOCALS_DB = -18;
const ACCOMPANIMENT_DB = -27;
const MIX_PEAK = 0.95;
const TAIL_S = 0.6;

export async function singSong(input: SingInput): Promise<SungSong> {
  const { melody, syllables, sampleRate: rate } = input;
  if (syllables.length !== melody.length) {
    throw new RangeError(`singSong: ${syllables.length} syllables for ${melody.length} notes`);
  }
  if (!(Math.abs(input.keyShift) <= 12)) throw new RangeError(`singSong: key shift ${input.keyShift} outside ±12`);
  if (!(input.tempo >= 0.5 && input.tempo <= 2)) throw new RangeError(`singSong: tempo ${input.tempo} outside 0.5–2`);
  if (!(input.bpm > 0)) throw new RangeError(`singSong: bpm ${input.bpm}`);
  const secondsPerBeat = 60 / (input.bpm * input.tempo);
  const notes = melody.map((n) => ({
    start: n.start * secondsPerBeat,
    end: (n.start + n.duration) * secondsPerBeat,
    hz: midiToHz(n.midi + input.keyShift),
  }));
  const lastEnd = Math.max(
    0,
    ...notes.map((n) => n.end),
    ...input.accompaniment.map((n) => (n.start + n.duration) * secondsPerBeat),
  );
  const length = Math.ceil((lastEnd + TAIL_S) * rate);

  // First pass: every distinct syllable spoken once, trimmed and measured.
  const spoken = new Map<string, { audio: Float32Array; hz: number | null }>();
  for (const [i, syllable] of syllables.entries()) {
    if (!spoken.has(syllable)) {
      const audio = trimSilence(await input.say(syllable), rate);
      spoken.set(syllable, { audio, hz: pitchPercentile(trackPitch(audio, rate), 50) });
    }
    input.onProgress?.((0.3 * (i + 1)) / syllables.length);
  }
  const known = [...spoken.values()].flatMap((s) => (s.hz === null ? [] : [s.hz]));
  const voiceHz = known.length ? known.sort((a, b) => a - b)[known.length >> 1]! : null;

  // Second pass: each note sung.
  const vocals = new Float32Array(length);
  for (const [i, note] of notes.entries()) {
    const { audio, hz } = spoken.get(syllables[i]!)!;
    const target = Math.round((note.end - note.start) * LEGATO * rate);
    if (audio.length > 0 && target > 0) {
      const sung = await singNote(audio, rate, hz ?? voiceHz ?? note.hz, note.hz, target);
      fade(sung, rate);
      const at = Math.round(note.start * rate);
      for (let j = 0; j < sung.length && at + j < length; j++) vocals[at + j]! += sung[j]!;
    }
    input.onProgress?.(0.3 + (0.65 * (i + 1)) / notes.length);
  }

  const shifted = input.accompaniment.map((n) => ({ ...n, midi: n.midi + input.keyShift }));
  const accompaniment = input.soundfont
    ? await renderWithSoundfont(shifted, input.bpm * input.tempo, rate, length / rate, input.soundfont)
    : renderAccompaniment(shifted, input.bpm * input.tempo, rate, length / rate);
  scaleToRms(vocals, VOCALS_DB);
  scaleToRms(accompaniment, ACCOMPANIMENT_DB);
  const mix = new Float32Array(length);
  let peak = 0;
  for (let i = 0; i < length; i++) {
    mix[i] = vocals[i]! + accompaniment[i]!;
    peak = Math.max(peak, Math.abs(mix[i]!));
  }
  if (peak > MIX_PEAK) {
    for (let i = 0; i < length; i++) mix[i]! *= MIX_PEAK / peak;
    for (let i = 0; i < length; i++) vocals[i]! *= MIX_PEAK / peak;
  }
  input.onProgress?.(1);
  return { mix, vocals, notes };
}

/**
 * One syllable sung at `toHz` for `length` samples: stretched and moved in one real-time Rubber Band pass
 * whose pitch scale follows the syllable's own pitch contour (5 ms frames, gaps filled from the nearest
 * voiced frame, median-smoothed), so the note comes out level. Each frame's correction stays within
 * MAX_BEND of the syllable's median's, so a mistracked frame cannot throw the note off.
 */
async function singNote(
  audio: Float32Array,
  rate: number,
  fromHz: number,
  toHz: number,
  length: number,
): Promise<Float32Array> {
  const curve = pitchCurve(audio, rate, fromHz);
  const base = toHz / fromHz;
  const hop = Math.round((rate * CURVE_HOP_MS) / 1000);
  const lookahead = Math.round(LOOKAHEAD_S * rate);
  return stretchAlongPitch(audio, rate, {
    timeRatio: length / audio.length,
    pitchScaleAt: (at) => {
      const own = curve[Math.min(curve.length - 1, Math.round((at + lookahead) / hop))] ?? fromHz;
      return Math.min(base * MAX_BEND, Math.max(base / MAX_BEND, toHz / own));
    },
  });
}

/** The syllable's pitch every CURVE_HOP_MS: unvoiced frames take the nearest voiced frame's, then a 5-frame median. */
function pitchCurve(audio: Float32Array, rate: number, fallbackHz: number): Float64Array {
  const track = trackPitch(audio, rate, { hopMs: CURVE_HOP_MS });
  const filled = new Float64Array(track.length);
  let last: number | null = null;
  for (let f = 0; f < track.length; f++) {
    if (track[f] != null) last = track[f]!;
    filled[f] = last ?? Number.NaN;
  }
  last = null;
  for (let f = track.length - 1; f >= 0; f--) {
    if (track[f] != null) last = track[f]!;
    if (Number.isNaN(filled[f]!)) filled[f] = last ?? fallbackHz;
  }
  return filled.map((_, f) => {
    const around = Array.from(filled.subarray(Math.max(0, f - 2), f + 3)).sort((a, b) => a - b);
    return around[around.length >> 1]!;
  });
}

/** The syllable without the silence around it (5 ms frames more than TRIM_DB under its loudest). */
function trimSilence(audio: Float32Array, rate: number): Float32Array {
  const frame = Math.max(1, Math.round(rate * 0.005));
  const frames = Math.floor(audio.length / frame);
  const energy = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = f * frame; i < (f + 1) * frame; i++) e += audio[i]! * audio[i]!;
    energy[f] = e / frame;
  }
  const loudest = energy.reduce((a, b) => Math.max(a, b), 0);
  if (loudest <= 0) return new Float32Array(0);
  const floor = loudest * 10 ** (-TRIM_DB / 10);
  let first = 0;
  while (first < frames && energy[first]! < floor) first++;
  let last = frames - 1;
  while (last > first && energy[last]! < floor) last--;
  return audio.slice(first * frame, Math.min(audio.length, (last + 1) * frame));
}

function fade(audio: Float32Array, rate: number): void {
  const fadeIn = Math.min(audio.length >> 1, Math.round(FADE_IN_S * rate));
  const fadeOut = Math.min(audio.length >> 1, Math.round(FADE_OUT_S * rate));
  for (let i = 0; i < fadeIn; i++) audio[i]! *= i / fadeIn;
  for (let i = 0; i < fadeOut; i++) audio[audio.length - 1 - i]! *= i / fadeOut;
}

function scaleToRms(audio: Float32Array, db: number): void {
  let sum = 0;
  for (const v of audio) sum += v * v;
  const rms = Math.sqrt(sum / Math.max(1, audio.length));
  if (rms === 0) return;
  const gain = 10 ** (db / 20) / rms;
  for (let i = 0; i < audio.length; i++) audio[i]! *= gain;
}
