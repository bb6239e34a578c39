import type { TuneNote } from "@yuelu/contracts/tunes";

/**
 * Melodies and lyrics for "AI sings for you" (docs/voice.md "Singing"), shared by the API (which
 * checks a request before queueing it) and the worker (which sings it): one syllable per note. The
 * syllables and how they fit the notes are contracts/syllables.ts (the web counts with the same
 * functions), a MIDI file's melody is midi.ts.
 */

export type MelodyNote = TuneNote;

export interface Melody {
  bpm: number;
  melody: MelodyNote[];
  accompaniment: MelodyNote[];
}

/** A melody moved by `keyShift` semitones (clamped to the MIDI range). */
export function transpose(notes: MelodyNote[], keyShift: number): MelodyNote[] {
  return notes.map((n) => ({ ...n, midi: Math.max(0, Math.min(127, Math.round(n.midi + keyShift))) }));
}
