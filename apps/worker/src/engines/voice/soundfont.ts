import { readFile } from "node:fs/promises";
import type { TuneNote } from "@yuelu/contracts/tunes";
import type { BasicSoundBank } from "spessasynth_core";
import { IdleResource } from "../idle.ts";

/**
 * A sung song's accompaniment played on a General MIDI sound font (runtime/soundfont.ts finds which)
 * by spessasynth_core, a SoundFont 2/3 synthesiser in plain JavaScript: no program to install. The notes
 * are played as an acoustic grand piano (GM program 0) straight into the synthesiser — note-on and
 * note-off at their sample — in 128-sample blocks, the granularity its envelopes and LFOs are computed
 * at; the two channels are mixed to mono, as the song is.
 */

const BLOCK = 128;
const PIANO = 0;
const VELOCITY = 84;
/** after the last note-off: the piano's release and the sound font's own tails */
const TAIL_SECONDS = 1.5;

/** The synthesiser's module, loaded by the first song (a worker that sings nothing never loads it). */
async function spessa() {
  const module = await import("spessasynth_core");
  module.SpessaLog.setLogLevel(false, false, false);
  return module;
}

/**
 * Sound banks by file: parsed by the first song that needs one (a 14 MB SF3 takes a quarter of a
 * second) and let go after ENGINE_IDLE_SECONDS without a song (engines/idle.ts).
 */
const banks = new Map<string, IdleResource<BasicSoundBank>>();

function bankOf(file: string): IdleResource<BasicSoundBank> {
  let bank = banks.get(file);
  if (!bank) {
    // a file that could not be read or parsed is tried again next time, not remembered as broken
    bank = new IdleResource(`sound font ${file}`, async () => {
      const [{ SoundBankLoader }, bytes] = await Promise.all([spessa(), readFile(file)]);
      return SoundBankLoader.fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    });
    banks.set(file, bank);
  }
  return bank;
}

interface NoteEvent {
  at: number;
  on: boolean;
  key: number;
}

/** `notes` (beats at `bpm`) played on the sound font `file` at `sampleRate`, `lengthSeconds` long. */
export async function renderWithSoundfont(
  notes: readonly TuneNote[],
  bpm: number,
  sampleRate: number,
  lengthSeconds: number,
  file: string,
): Promise<Float32Array> {
  const length = Math.max(0, Math.round(lengthSeconds * sampleRate));
  const out = new Float32Array(length);
  if (length === 0 || notes.length === 0) return out;
  return bankOf(file).use(async (bank) => {
    const { SpessaSynthProcessor } = await spessa();
    const synth = new SpessaSynthProcessor(sampleRate, { eventsEnabled: false, effectsEnabled: false });
    synth.soundBankManager.addSoundBank(bank, "main");
    await synth.processorInitialized;
    synth.setSystemParameter("autoAllocateVoices", true);
    synth.programChange(0, PIANO);

    const secondsPerBeat = 60 / bpm;
    const events: NoteEvent[] = [];
    for (const note of notes) {
      if (note.midi < 0 || note.midi > 127 || !(note.duration > 0)) continue;
      const from = Math.round(note.start * secondsPerBeat * sampleRate);
      const to = Math.round((note.start + note.duration) * secondsPerBeat * sampleRate);
      if (from >= length) continue;
      events.push({ at: from, on: true, key: note.midi }, { at: Math.max(from + 1, to), on: false, key: note.midi });
    }
    // at one instant a note-off goes first, so a repeated key is struck again rather than cut
    events.sort((a, b) => a.at - b.at || Number(a.on) - Number(b.on));

    const left = new Float32Array(length);
    const right = new Float32Array(length);
    const last = events.reduce((end, e) => Math.max(end, e.at), 0);
    const end = Math.min(length, last + Math.round(TAIL_SECONDS * sampleRate));
    let next = 0;
    for (let pos = 0; pos < end; pos += BLOCK) {
      while (next < events.length && events[next]!.at <= pos) {
        const e = events[next++]!;
        if (e.on) synth.noteOn(0, e.key, VELOCITY);
        else synth.noteOff(0, e.key);
      }
      synth.process(left, right, pos, Math.min(BLOCK, end - pos));
    }
    for (let i = 0; i < end; i++) out[i] = (left[i]! + right[i]!) / 2;
    return out;
  });
}
