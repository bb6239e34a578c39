import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { decodeToPcm, pcmFrom } from "../../apps/worker/src/audio/pcm.ts";
import { energyProfile } from "../../apps/worker/src/audio/vad.ts";

/**
 * Real human voices for the speaker tests: pocketsphinx-testdata (installed by .ci/run) — the LibriVox reader,
 * the "cards" speaker, the "go forward" speaker — whisper.cpp's JFK sample (in node_modules), and ktuberling-data
 * (installed by .ci/run): one recorded voice per language, saying single words.
 */
export const PS = "/usr/share/pocketsphinx/test/data";
export const KTUBERLING = "/usr/share/ktuberling/sounds";
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

/** `count` of a ktuberling voice's words (its files in name order, from `from`), said one after another as one clip. */
export async function ktuberlingWords(language: string, from: number, count: number): Promise<Float32Array> {
  const dir = path.join(KTUBERLING, language);
  if (!existsSync(dir)) throw new Error(`${dir} is missing: apt-get install ktuberling-data`);
  const files = readdirSync(dir)
    .sort()
    .slice(from, from + count);
  return saidTogether(await Promise.all(files.map((f) => floats(path.join(dir, f)))));
}

/** Words one after another with 0.15 s between them, as one clip. */
export function saidTogether(words: Float32Array[]): Float32Array {
  const pause = Math.round(0.15 * RATE);
  const out = new Float32Array(words.reduce((n, w) => n + w.length + pause, -pause));
  let at = 0;
  for (const w of words) {
    out.set(w, at);
    at += w.length + pause;
  }
  return out;
}

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
