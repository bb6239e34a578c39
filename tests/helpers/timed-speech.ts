import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A word said in a test recording, and when (ms into the recording). */
export interface KnownWord {
  text: string;
  startMs: number;
  endMs: number;
}

/**
 * English speech with known word times (issue 45): festival's US HTS voice (`festvox-us-slt-hts`)
 * speaks each text, and festival itself reports where each word of its utterance begins and ends
 * (the `Word` relation's word_start / word_end, the durations its HTS model chose — exact for the audio
 * it writes). The texts are joined with `gapSeconds` of silence into one 16 kHz mono WAV at `file`.
 */
export async function festivalWithTimes(
  texts: readonly string[],
  file: string,
  options: { gapSeconds?: number; leadSeconds?: number } = {},
): Promise<{ file: string; words: KnownWord[]; seconds: number }> {
  const gap = options.gapSeconds ?? 0.6;
  const dir = path.dirname(file);
  const base = path.basename(file, ".wav");
  const scheme: string[] = ["(voice_cmu_us_slt_arctic_hts)"];
  const raws = texts.map((_, i) => path.join(dir, `${base}.part${i}.wav`));
  texts.forEach((text, i) => {
    const quoted = text.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
    scheme.push(
      `(set! utt (SynthText "${quoted}"))`,
      `(utt.save.wave utt "${raws[i]}" 'riff)`,
      `(mapcar (lambda (w) (format t "W ${i} %s %f %f\\n" (item.name w) (item.feat w 'word_start) (item.feat w 'word_end))) (utt.relation.items utt 'Word))`,
    );
  });
  const script = path.join(dir, `${base}.scm`);
  await writeFile(script, `${scheme.join("\n")}\n`);
  const { stdout } = await run("festival", ["-b", script], { maxBuffer: 16 * 1024 * 1024 });
  const perText: KnownWord[][] = texts.map(() => []);
  for (const line of stdout.split("\n")) {
    const m = /^W (\d+) (\S+) ([\d.]+) ([\d.]+)$/.exec(line.trim());
    if (m) perText[Number(m[1])]!.push({ text: m[2]!, startMs: Number(m[3]) * 1000, endMs: Number(m[4]) * 1000 });
  }
  // each part at 16 kHz, then the silences between them, their lengths read back for the offsets
  const parts: string[] = [];
  const words: KnownWord[] = [];
  let at = options.leadSeconds ?? 0.3;
  const lead = path.join(dir, `${base}.lead.wav`);
  await run("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", lead, "trim", "0", String(at)]);
  parts.push(lead);
  for (let i = 0; i < texts.length; i++) {
    const part = path.join(dir, `${base}.p16-${i}.wav`);
    await run("sox", [raws[i]!, "-r", "16000", "-c", "1", "-b", "16", part, "pad", "0", String(gap)]);
    for (const w of perText[i]!)
      words.push({ text: w.text, startMs: w.startMs + at * 1000, endMs: w.endMs + at * 1000 });
    const { stdout: seconds } = await run("soxi", ["-D", part]);
    at += Number(seconds.trim());
    parts.push(part);
  }
  await run("sox", [...parts, file]);
  await Promise.all([...raws, ...parts, script].map((f) => rm(f, { force: true })));
  return { file, words, seconds: at };
}

/** 16 kHz mono 16-bit WAV samples as floats (the data chunk of a canonical WAV). */
export async function readWavFloats(file: string): Promise<Float32Array> {
  const bytes = await readFile(file);
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString("latin1", offset, offset + 4);
    const size = bytes.readUInt32LE(offset + 4);
    if (id === "data") {
      const n = Math.floor(Math.min(size, bytes.length - offset - 8) / 2);
      const out = new Float32Array(n);
      for (let i = 0; i < n; i++) out[i] = bytes.readInt16LE(offset + 8 + i * 2) / 32768;
      return out;
    }
    offset += 8 + size + (size & 1);
  }
  throw new Error(`${file}: no data chunk`);
}

/**
 * Start errors (ms) of `heard` words against `known` ones: the two word lists are matched in order by
 * what they say (the longest common run of lower-cased letters and digits), and each matched pair gives
 * |heard start − known start|. Words heard wrong are left out (their count is `unmatched`).
 */
export function startErrors(
  known: readonly KnownWord[],
  heard: readonly { text: string; startMs: number }[],
): { errors: number[]; unmatched: number } {
  const form = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  const a = known.map((w) => form(w.text));
  const b = heard.map((w) => form(w.text));
  const n = a.length;
  const m = b.length;
  const t = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      t[i]![j] = a[i] === b[j] && a[i] ? t[i + 1]![j + 1]! + 1 : Math.max(t[i + 1]![j]!, t[i]![j + 1]!);
    }
  }
  const errors: number[] = [];
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j] && a[i]) {
      errors.push(Math.abs(heard[j]!.startMs - known[i]!.startMs));
      i++;
      j++;
    } else if (t[i + 1]![j]! >= t[i]![j + 1]!) i++;
    else j++;
  }
  return { errors, unmatched: n - errors.length };
}

/** The q-quantile (0..1) of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
