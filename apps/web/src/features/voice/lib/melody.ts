/** A note of a melody: MIDI pitch, start and length in beats (contracts' ZNote). */
export interface Note {
  midi: number;
  start: number;
  duration: number;
}

export interface Melody {
  bpm: number;
  notes: Note[];
}

const NAMES = ["C", "C♯", "D", "D♯", "E", "F", "F♯", "G", "G♯", "A", "A♯", "B"];

/** "C4" for 60. */
export function noteName(midi: number): string {
  const m = Math.round(midi);
  return `${NAMES[((m % 12) + 12) % 12]}${Math.floor(m / 12) - 1}`;
}

export function isBlackKey(midi: number): boolean {
  return [1, 3, 6, 8, 10].includes(((Math.round(midi) % 12) + 12) % 12);
}

/** The melody moved by `semitones` (the key control). */
export function shiftNotes<T extends Note>(notes: readonly T[], semitones: number): T[] {
  return notes.map((n) => ({ ...n, midi: n.midi + semitones }));
}

/** The melody's length in beats (the end of its last note). */
export function melodyBeats(notes: readonly Note[]): number {
  return notes.reduce((end, n) => Math.max(end, n.start + n.duration), 0);
}

/** Seconds that `beats` last at `bpm`, played `tempo` times as fast. */
export function beatsToSeconds(beats: number, bpm: number, tempo = 1): number {
  if (bpm <= 0 || tempo <= 0) return 0;
  return (beats * 60) / (bpm * tempo);
}

/** The pitch rows a piano roll shows: the melody's lowest to highest note, a step of room either side. */
export function pitchRange(notes: readonly Note[], pad = 2): { low: number; high: number } {
  if (notes.length === 0) return { low: 60 - pad, high: 72 + pad };
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const n of notes) {
    low = Math.min(low, Math.round(n.midi));
    high = Math.max(high, Math.round(n.midi));
  }
  return { low: low - pad, high: high + pad };
}

/**
 * A MIDI file's melody as the page shows it, read as the server reads it (packages/domain
 * voice/melody.ts tuneFromMidi): its first tempo, and the notes of its busiest pitched (non-drum)
 * track in beats, one at a time — of notes starting together the highest is kept, and a note is cut
 * where the next one starts.
 */
export function melodyFromTracks(
  ppq: number,
  bpm: number | undefined,
  tracks: readonly {
    notes: readonly { midi: number; ticks: number; durationTicks: number }[];
    instrument?: { percussion: boolean };
  }[],
): Melody {
  const pitched = tracks.filter((t) => !t.instrument?.percussion && t.notes.length > 0);
  const busiest = [...pitched].sort((a, b) => b.notes.length - a.notes.length)[0];
  const raw = [...(busiest?.notes ?? [])].sort((a, b) => a.ticks - b.ticks || b.midi - a.midi);
  const notes: Note[] = [];
  for (const n of raw) {
    const start = n.ticks / ppq;
    const prev = notes.at(-1);
    if (prev && Math.abs(prev.start - start) < 1e-6) continue; // a chord: its top note
    if (prev && prev.start + prev.duration > start) prev.duration = start - prev.start;
    notes.push({ midi: n.midi, start, duration: Math.max(1 / 16, n.durationTicks / ppq) });
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    bpm: Math.round(bpm && bpm > 0 ? bpm : 120),
    notes: notes.map((n) => ({ midi: n.midi, start: round(n.start), duration: round(n.duration) })),
  };
}
