import { type Melody, melodyFromTracks } from "./melody.ts";

/**
 * Reads a .mid file in the browser for the piano roll. @tonejs/midi is loaded on first use only,
 * in a chunk of its own: a visitor who never opens a MIDI file never downloads it.
 */
export async function readMidiFile(file: Blob): Promise<Melody> {
  const { Midi } = await import("@tonejs/midi");
  const midi = new Midi(await file.arrayBuffer());
  return melodyFromTracks(midi.header.ppq, midi.header.tempos[0]?.bpm, midi.tracks);
}
