import { describe, expect, it } from "vitest";
import { beatsToSeconds, melodyBeats, melodyFromTracks, noteName, pitchRange, shiftNotes } from "./melody.ts";

describe("melodies", () => {
  it("names notes and moves them by the key", () => {
    expect(noteName(60)).toBe("C4");
    expect(noteName(69)).toBe("A4");
    expect(noteName(61)).toBe("C♯4");
    const notes = [
      { midi: 60, start: 0, duration: 1 },
      { midi: 67, start: 1, duration: 2 },
    ];
    expect(shiftNotes(notes, -3).map((n) => n.midi)).toEqual([57, 64]);
    expect(notes[0]!.midi).toBe(60);
    expect(melodyBeats(notes)).toBe(3);
    expect(pitchRange(notes)).toEqual({ low: 58, high: 69 });
    expect(beatsToSeconds(8, 120)).toBe(4);
    expect(beatsToSeconds(8, 120, 2)).toBe(2);
  });

  it("reads a MIDI file's busiest track as one line of notes in beats", () => {
    const drums = Array.from({ length: 9 }, (_, i) => ({ midi: 36, ticks: i * 240, durationTicks: 60 }));
    const melody = melodyFromTracks(480, 96.5, [
      { notes: drums, instrument: { percussion: true } },
      { notes: [{ midi: 40, ticks: 0, durationTicks: 1920 }] },
      {
        notes: [
          { midi: 64, ticks: 480, durationTicks: 480 },
          { midi: 60, ticks: 0, durationTicks: 960 }, // overlaps the next: cut where it starts
          { midi: 55, ticks: 480, durationTicks: 240 }, // a chord under 64: dropped
          { midi: 67, ticks: 960, durationTicks: 240 },
        ],
      },
    ]);
    expect(melody.bpm).toBe(97);
    expect(melody.notes).toEqual([
      { midi: 60, start: 0, duration: 1 },
      { midi: 64, start: 1, duration: 1 },
      { midi: 67, start: 2, duration: 0.5 },
    ]);
  });
});
