import { createRequire } from "node:module";
import { MELODY_MAX_NOTES, SONG_MAX_SECONDS } from "@yuelu/contracts";
import type { TuneNote } from "@yuelu/contracts/tunes";

// @tonejs/midi is CommonJS without named exports Node can see from ESM: loaded through require.
const { Midi } = createRequire(import.meta.url)("@tonejs/midi") as typeof import("@tonejs/midi");

/**
 * A melody to sing, from a user's MIDI file ("AI sings for you", issue 20): the non-drum track with the
 * most notes is the melody, made monophonic (one syllable per note: where notes overlap, the highest
 * wins — the tune usually sits on top of its own harmony); every other non-drum track is accompaniment.
 * Times are in beats at the file's first tempo, taken from the notes' times in seconds, so a file that
 * changes tempo still sounds as written.
 */

export class MidiProblem extends Error {
  constructor(readonly problem: "unreadable" | "no-notes" | "too-long") {
    super(`MIDI file refused: ${problem}`);
    this.name = "MidiProblem";
  }
}

/** Melodies longer than this are refused: each note is a sung syllable (the refusal names the limits). */
export const MIDI_MAX_MELODY_NOTES = MELODY_MAX_NOTES;
/** …and songs longer than this (seconds). */
export const MIDI_MAX_SECONDS = SONG_MAX_SECONDS;
/** An accompaniment past this many notes is a full orchestration, not something to render here. */
export const MIDI_MAX_ACCOMPANIMENT_NOTES = 20_000;
/** notes shorter than this (beats) after the melody is made monophonic are dropped (grace notes, overlaps) */
const MIN_NOTE_BEATS = 1 / 16;
const DEFAULT_BPM = 120;

export function tuneFromMidi(bytes: Uint8Array): { bpm: number; melody: TuneNote[]; accompaniment: TuneNote[] } {
  let midi: InstanceType<typeof Midi>;
  try {
    midi = new Midi(bytes);
  } catch {
    throw new MidiProblem("unreadable");
  }
  const tempo = midi.header.tempos[0]?.bpm;
  const bpm = tempo && Number.isFinite(tempo) && tempo > 0 ? Math.round(tempo * 100) / 100 : DEFAULT_BPM;
  const beats = (seconds: number) => (seconds * bpm) / 60;
  const tracks = midi.tracks
    .filter((t) => !t.instrument.percussion && t.channel !== 9 && t.notes.length > 0)
    .map((t) =>
      t.notes
        .filter((n) => n.duration > 0)
        .map((n) => ({ midi: n.midi, start: beats(n.time), duration: beats(n.duration) }))
        .sort((a, b) => a.start - b.start || b.midi - a.midi),
    )
    .filter((notes) => notes.length > 0);
  if (tracks.length === 0) throw new MidiProblem("no-notes");
  const end = Math.max(...tracks.flatMap((notes) => notes.map((n) => n.start + n.duration)));
  if ((end * 60) / bpm > MIDI_MAX_SECONDS) throw new MidiProblem("too-long");

  const main = tracks.reduce((best, t) => (t.length > best.length ? t : best));
  const melody = monophonic(main);
  const accompaniment = tracks.filter((t) => t !== main).flat();
  if (melody.length === 0) throw new MidiProblem("no-notes");
  if (melody.length > MIDI_MAX_MELODY_NOTES || accompaniment.length > MIDI_MAX_ACCOMPANIMENT_NOTES) {
    throw new MidiProblem("too-long");
  }
  accompaniment.sort((a, b) => a.start - b.start || a.midi - b.midi);
  return { bpm, melody, accompaniment };
}

/**
 * One note at a time, highest first: a note starting while a higher one sounds is dropped; a higher
 * note starting while a lower one sounds cuts the lower one short. `notes` is sorted by start, then
 * highest first.
 */
function monophonic(notes: TuneNote[]): TuneNote[] {
  const out: TuneNote[] = [];
  for (const note of notes) {
    const last = out[out.length - 1];
    if (last && note.start < last.start + last.duration - 1e-9) {
      if (note.midi <= last.midi) continue;
      last.duration = note.start - last.start;
      if (last.duration < MIN_NOTE_BEATS) out.pop();
    }
    out.push({ ...note });
  }
  return out.filter((n) => n.duration >= MIN_NOTE_BEATS);
}
