import { readFileSync } from "node:fs";
import path from "node:path";
import midiPackage from "@tonejs/midi";
import { YIN } from "pitchfinder";
import { encodeWav } from "../../apps/worker/src/audio/pcm.ts";
import { parseWav } from "../../apps/worker/src/audio/speech-audio.ts";
import { seededRandom } from "./noise.ts";

/** Audio and MIDI made for the voice tests (docs/voice.md): real human speech, generated songs, MIDI files. */

const { Midi } = midiPackage;

export const JFK_WAV = path.resolve(
  import.meta.dirname,
  "../../node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav",
);

/** The JFK clip (11 s of real human speech, 16 kHz) as floats. */
export function jfk(): Float32Array {
  const audio = parseWav(readFileSync(JFK_WAV));
  if (!audio) throw new Error(`cannot read ${JFK_WAV}`);
  return Float32Array.from(audio.samples, (v) => v / 32768);
}

/** `times` copies of `audio` one after another. */
export function repeat(audio: Float32Array, times: number): Float32Array {
  const out = new Float32Array(audio.length * times);
  for (let i = 0; i < times; i++) out.set(audio, i * audio.length);
  return out;
}

/** A 16-bit mono WAV file's bytes. */
export function wavBytes(samples: Float32Array, rate = 16_000): Buffer {
  return encodeWav(samples, rate);
}

/** A 16-bit stereo WAV file's bytes. */
export function stereoWav(left: Float32Array, right: Float32Array, rate: number): Buffer {
  const frames = left.length;
  const data = Buffer.alloc(frames * 4);
  for (let i = 0; i < frames; i++) {
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, left[i]!)) * 32767), i * 4);
    data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, right[i]!)) * 32767), i * 4 + 2);
  }
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(2, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/**
 * A small stereo "song": a sung-like voice in the centre (a harmonic tone gliding over a few notes,
 * with vibrato) over two instruments panned hard left and right, `seconds` long.
 */
export function generatedSong(
  seconds: number,
  rate = 32_000,
  seed = 7,
): { left: Float32Array; right: Float32Array; voiceHz: number[] } {
  const n = Math.round(seconds * rate);
  const left = new Float32Array(n);
  const right = new Float32Array(n);
  const random = seededRandom(seed);
  const notes = [220, 247, 262, 294, 262, 247]; // A3 B3 C4 D4 C4 B3
  const noteLen = Math.round(rate * 0.5);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const hz = notes[Math.floor(i / noteLen) % notes.length]! * (1 + 0.004 * Math.sin((2 * Math.PI * 5 * i) / rate));
    phase += (2 * Math.PI * hz) / rate;
    let voice = 0;
    for (let h = 1; h <= 8; h++) voice += Math.sin(h * phase) / h ** 1.2;
    const env = Math.min(1, ((i % noteLen) / rate) * 40) * Math.min(1, ((noteLen - (i % noteLen)) / rate) * 40);
    const c = 0.18 * voice * env;
    const t = i / rate;
    const guitar = 0.12 * Math.sin(2 * Math.PI * 110 * t) * Math.exp(-((t % 1) * 3));
    const keys = 0.08 * Math.sin(2 * Math.PI * 523.25 * t) * Math.exp(-((t % 0.75) * 4));
    const hiss = 0.002 * (random() * 2 - 1);
    left[i] = c + guitar + hiss;
    right[i] = c + keys + hiss;
  }
  return { left, right, voiceHz: notes };
}

/** A MIDI file's bytes: `notes` (MIDI number, start and length in beats) on one track at `bpm`. */
export function midiBytes(
  notes: { midi: number; start: number; duration: number }[],
  bpm = 100,
  extraTrack = false,
): Buffer {
  const midi = new Midi();
  midi.header.setTempo(bpm);
  const beat = 60 / bpm;
  const track = midi.addTrack();
  for (const n of notes)
    track.addNote({ midi: n.midi, time: n.start * beat, duration: n.duration * beat, velocity: 0.8 });
  if (extraTrack) {
    const bass = midi.addTrack();
    bass.addNote({ midi: 48, time: 0, duration: beat * 4, velocity: 0.6 });
  }
  return Buffer.from(midi.toArray());
}

/**
 * The median pitch of `samples` (16 kHz) by pitchfinder's YIN over 64 ms frames loud enough to be speech:
 * an independent measure (the product tracks pitch with its own YIN).
 */
export function yinMedian(samples: Float32Array, rate = 16_000): number {
  const yin = YIN({ sampleRate: rate, threshold: 0.15 });
  const found: number[] = [];
  for (let i = 0; i + 1024 <= samples.length; i += 256) {
    const frame = samples.subarray(i, i + 1024);
    let energy = 0;
    for (const v of frame) energy += v * v;
    if (energy / frame.length < 1e-4) continue;
    const hz = yin(frame);
    if (hz && hz > 60 && hz < 500) found.push(hz);
  }
  found.sort((a, b) => a - b);
  return found[found.length >> 1] ?? 0;
}
