import { readFileSync } from "node:fs";
import path from "node:path";
import { decodeToPcm, pcmFrom } from "../../apps/worker/src/audio/pcm.ts";
import { energyProfile } from "../../apps/worker/src/audio/vad.ts";

/**
 * Real human voices for the speaker tests: pocketsphinx-testdata (installed by .ci/run) — the LibriVox reader,
 * the "cards" speaker, the "go forward" speaker — and whisper.cpp's JFK sample (in node_modules).
 */
export const PS = "/usr/share/pocketsphinx/test/data";
export const JFK = path.resolve("node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav");
const RATE = 16_000;

/** A clip as 16 kHz mono floats (a .raw file is 16 kHz signed 16-bit). */
export async function floats(file: string): Promise<Float32Array> {
  if (file.endsWith(".raw")) {
    const bytes = readFileSync(file);
    const s = new Int16Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 2));
    return Float32Array.from(s, (x) => x / 32768);
  }
  const pcm = await decodeToPcm(file);
  return pcm.slice(0, pcm.length);
}

export const librivox = (id: string) =>
  floats(path.join(PS, "librivox", `sense_and_sensibility_01_austen_64kb-${id}.wav`));

/** Clips one after another with 0.8 s between them; each clip is a segment. */
export function recording(clips: Float32Array[]) {
  const gap = Math.round(0.8 * RATE);
  const out = new Float32Array(clips.reduce((n, c) => n + c.length + gap, gap));
  const segments: { startMs: number; endMs: number }[] = [];
  let at = gap;
  for (const c of clips) {
    out.set(c, at);
    segments.push({ startMs: (at / RATE) * 1000, endMs: ((at + c.length) / RATE) * 1000 });
    at += c.length + gap;
  }
  const pcm = pcmFrom(out);
  return { pcm, segments, profile: energyProfile(pcm) };
}
