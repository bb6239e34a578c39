import { execFile, spawn } from "node:child_process";
import { readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { installHint } from "@yuelu/runtime";
import type { PcmAudio } from "../engines/tts/types.ts";
import { ffmpegBinary } from "./pcm.ts";

/**
 * The audio half of text to speech (docs/tts.md "What the worker does"): reading what engines answer
 * (WAV, or anything ffmpeg decodes), trimming each sentence's own silence, joining sentences with
 * their pauses, levelling loudness, and encoding the result with ffmpeg (pitch shifts included).
 */

const run = promisify(execFile);

export class SpeechAudioError extends Error {
  constructor(
    message: string,
    /** true when ffmpeg itself is missing (not retried: the operator must install it) */
    readonly ffmpegMissing = false,
  ) {
    super(message);
    this.name = "SpeechAudioError";
  }
}

/** A RIFF/WAVE file of 16-bit, 24-bit, 32-bit or float PCM, downmixed to mono; undefined when it is not one. */
export function parseWav(buffer: Buffer): PcmAudio | undefined {
  if (buffer.length < 12 || buffer.toString("ascii", 0, 4) !== "RIFF" || buffer.toString("ascii", 8, 12) !== "WAVE") {
    return undefined;
  }
  let offset = 12;
  let format: { tag: number; channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("ascii", offset, offset + 4);
    const declared = buffer.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt " && body + 16 <= buffer.length) {
      let tag = buffer.readUInt16LE(body);
      if (tag === 0xfffe && declared >= 26 && body + 26 <= buffer.length) tag = buffer.readUInt16LE(body + 24);
      format = {
        tag,
        channels: buffer.readUInt16LE(body + 2),
        rate: buffer.readUInt32LE(body + 4),
        bits: buffer.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) return undefined;
      // Streamed WAVs (espeak --stdout, HTTP servers) declare 0 or 0xFFFFFFFF: the data runs to the end.
      const end = declared === 0 || declared === 0xffffffff ? buffer.length : Math.min(buffer.length, body + declared);
      return decodePcm(buffer.subarray(body, end), format);
    }
    offset = body + declared + (declared % 2);
  }
  return undefined;
}

function decodePcm(
  data: Buffer,
  format: { tag: number; channels: number; rate: number; bits: number },
): PcmAudio | undefined {
  const { tag, channels, rate, bits } = format;
  if (channels < 1 || rate < 1000) return undefined;
  const bytes = bits / 8;
  const frame = bytes * channels;
  const frames = Math.floor(data.length / frame);
  const read: ((at: number) => number) | undefined =
    tag === 1 && bits === 16
      ? (at) => data.readInt16LE(at) / 32768
      : tag === 1 && bits === 24
        ? (at) => data.readIntLE(at, 3) / 8_388_608
        : tag === 1 && bits === 32
          ? (at) => data.readInt32LE(at) / 2_147_483_648
          : tag === 3 && bits === 32
            ? (at) => data.readFloatLE(at)
            : tag === 1 && bits === 8
              ? (at) => (data.readUInt8(at) - 128) / 128
              : undefined;
  if (!read) return undefined;
  const samples = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += read(i * frame + c * bytes);
    samples[i] = Math.max(-32768, Math.min(32767, Math.round((sum / channels) * 32767)));
  }
  return { sampleRate: rate, samples };
}

/** Any audio an engine answered (WAV read directly; MP3, Opus, FLAC… through ffmpeg at `fallbackRate`). */
export async function decodeSpeech(buffer: Buffer, fallbackRate = 24_000, signal?: AbortSignal): Promise<PcmAudio> {
  const wav = parseWav(buffer);
  if (wav) return wav;
  const args = [
    "-nostdin",
    "-hide_banner",
    "-loglevel",
    "error",
    "-i",
    "pipe:0",
    "-ac",
    "1",
    "-ar",
    String(fallbackRate),
  ];
  const pcm = await ffmpegPipe([...args, "-f", "s16le", "pipe:1"], buffer, signal);
  return { sampleRate: fallbackRate, samples: toInt16(pcm) };
}

function toInt16(buffer: Buffer): Int16Array {
  const copy = Buffer.from(buffer.subarray(0, buffer.length - (buffer.length % 2)));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/** Runs ffmpeg with `input` on stdin and answers its stdout. */
export function ffmpegPipe(args: string[], input: Buffer, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegBinary(), args, { stdio: ["pipe", "pipe", "pipe"], signal });
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.stdin.on("error", () => {});
    child.on("error", (error: NodeJS.ErrnoException) => reject(ffmpegError(error, stderr)));
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new SpeechAudioError(`ffmpeg failed (exit ${code}): ${stderr.trim().slice(0, 500)}`));
    });
    child.stdin.end(input);
  });
}

function ffmpegError(error: NodeJS.ErrnoException, stderr: string): Error {
  if (error.code === "ENOENT") {
    return new SpeechAudioError(`ffmpeg is not installed: ${installHint("ffmpeg", process.env.FFMPEG_PATH)}`, true);
  }
  if (error.name === "AbortError") return error;
  return new SpeechAudioError(`ffmpeg could not run: ${error.message} ${stderr.slice(0, 300)}`);
}

/** `audio` at `rate` (linear interpolation: only for the rare engine that answers pieces at mixed rates). */
export function resample(audio: PcmAudio, rate: number): PcmAudio {
  if (audio.sampleRate === rate || audio.samples.length === 0) return { sampleRate: rate, samples: audio.samples };
  const ratio = audio.sampleRate / rate;
  const out = new Int16Array(Math.floor(audio.samples.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const x = i * ratio;
    const j = Math.floor(x);
    const a = audio.samples[j] ?? 0;
    const b = audio.samples[Math.min(j + 1, audio.samples.length - 1)] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return { sampleRate: rate, samples: out };
}

/**
 * The piece without the silence an engine puts around it: from 15 ms before the first sample above
 * -45 dBFS (or 5 % of its peak, whichever is higher) to 40 ms after the last.
 */
export function trimSilence(audio: PcmAudio): Int16Array {
  const s = audio.samples;
  let peak = 0;
  for (let i = 0; i < s.length; i++) peak = Math.max(peak, Math.abs(s[i]!));
  if (peak === 0) return new Int16Array(0);
  const threshold = Math.max(184, peak * 0.05); // -45 dBFS = 184
  let first = 0;
  while (first < s.length && Math.abs(s[first]!) < threshold) first++;
  let last = s.length - 1;
  while (last > first && Math.abs(s[last]!) < threshold) last--;
  const rate = audio.sampleRate;
  const from = Math.max(0, first - Math.round(rate * 0.015));
  const to = Math.min(s.length, last + 1 + Math.round(rate * 0.04));
  return s.subarray(from, to);
}

/** Sentences joined into one track: each trimmed, then followed by its pause. */
export function joinPieces(pieces: readonly PcmAudio[], pausesMs: readonly number[]): PcmAudio {
  const rate = pieces.find((p) => p.samples.length > 0)?.sampleRate ?? 24_000;
  const trimmed = pieces.map((p) => trimSilence(resample(p, rate)));
  const pauses = pausesMs.map((ms) => Math.round((Math.max(0, ms) * rate) / 1000));
  const lead = Math.round(rate * 0.1);
  let length = lead * 2;
  trimmed.forEach((t, i) => {
    length += t.length + (pauses[i] ?? 0);
  });
  const out = new Int16Array(length);
  let at = lead;
  trimmed.forEach((t, i) => {
    out.set(t, at);
    at += t.length + (pauses[i] ?? 0);
  });
  return { sampleRate: rate, samples: out.subarray(0, Math.max(at + lead, 0)) };
}

/** Speech loudness target: -20 dBFS RMS over the frames that carry speech. */
const TARGET_RMS = 0.1;
const LIMIT = 0.89; // -1 dBFS

/**
 * Levels the track so every voice is equally loud: the RMS of its speech frames (20 ms, those within
 * 30 dB of the loudest) is brought to -20 dBFS, times `volume`; peaks above -1 dBFS are softly
 * limited rather than clipped. Answers the track and the gain applied.
 */
export function normaliseLoudness(audio: PcmAudio, volume = 1): { audio: PcmAudio; gain: number } {
  const s = audio.samples;
  const frame = Math.max(1, Math.round(audio.sampleRate * 0.02));
  const energies: number[] = [];
  for (let i = 0; i + frame <= s.length; i += frame) {
    let sum = 0;
    for (let j = i; j < i + frame; j++) sum += (s[j]! / 32768) ** 2;
    energies.push(sum / frame);
  }
  const loudest = Math.max(0, ...energies);
  if (loudest === 0) return { audio, gain: 1 };
  const speech = energies.filter((e) => e >= loudest / 1000);
  const rms = Math.sqrt(speech.reduce((a, b) => a + b, 0) / speech.length);
  const gain = Math.min(40, (TARGET_RMS / rms) * volume);
  const out = new Int16Array(s.length);
  const knee = LIMIT * 0.8;
  for (let i = 0; i < s.length; i++) {
    let v = (s[i]! / 32768) * gain;
    const a = Math.abs(v);
    if (a > knee) v = Math.sign(v) * (knee + (LIMIT - knee) * Math.tanh((a - knee) / (LIMIT - knee)));
    out[i] = Math.round(v * 32767);
  }
  return { audio: { sampleRate: audio.sampleRate, samples: out }, gain };
}

let rubberbandProbe: Promise<boolean> | undefined;

/** Whether this ffmpeg has the rubberband filter (Debian's does): pitch shifts that keep the timbre. */
export function hasRubberband(): Promise<boolean> {
  rubberbandProbe ??= run(ffmpegBinary(), ["-hide_banner", "-filters"], { maxBuffer: 4 << 20 })
    .then(({ stdout }) => /\brubberband\b/.test(stdout))
    .catch(() => false);
  return rubberbandProbe;
}

/** ffmpeg filters shifting the pitch by `semitones` (tempo kept); `keepFormants` keeps the voice's timbre. */
async function pitchFilters(semitones: number, keepFormants: boolean, rate: number): Promise<string[]> {
  if (Math.abs(semitones) < 0.01) return [];
  const ratio = 2 ** (semitones / 12);
  if (await hasRubberband()) {
    return [`rubberband=pitch=${ratio.toFixed(5)}:formant=${keepFormants ? "preserved" : "shifted"}`];
  }
  // Without rubberband: resample-based shift, then restore the tempo (moves the formants too).
  return [`asetrate=${Math.round(rate * ratio)}`, `aresample=${rate}`, `atempo=${(1 / ratio).toFixed(5)}`];
}

export interface PitchShift {
  semitones: number;
  keepFormants: boolean;
}

/** Shifts the pitch of a track (ffmpeg, PCM in and out): what engines could not do natively. */
export async function shiftPitch(
  audio: PcmAudio,
  shifts: readonly PitchShift[],
  signal?: AbortSignal,
): Promise<PcmAudio> {
  const filters: string[] = [];
  for (const shift of shifts)
    filters.push(...(await pitchFilters(shift.semitones, shift.keepFormants, audio.sampleRate)));
  if (filters.length === 0) return audio;
  const rate = String(audio.sampleRate);
  const input = Buffer.from(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength);
  const out = await ffmpegPipe(
    [
      ...["-nostdin", "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", rate, "-ac", "1", "-i", "pipe:0"],
      ...["-af", filters.join(","), "-ar", rate, "-ac", "1", "-f", "s16le", "pipe:1"],
    ],
    input,
    signal,
  );
  return { sampleRate: audio.sampleRate, samples: toInt16(out) };
}

export interface EncodedSpeech {
  data: Buffer;
  durationMs: number;
  mime: string;
}

/**
 * The track as MP3 (64 kbit/s mono, with the header that tells players its length) or 16-bit WAV,
 * encoded by ffmpeg into a temporary file (so the header can be written once the length is known).
 */
export async function encodeSpeech(
  audio: PcmAudio,
  format: "mp3" | "wav",
  signal?: AbortSignal,
): Promise<EncodedSpeech> {
  const rate = String(audio.sampleRate);
  const file = path.join(os.tmpdir(), `yuelu-tts-${process.pid}-${Math.random().toString(36).slice(2)}.${format}`);
  const codec = format === "mp3" ? ["-c:a", "libmp3lame", "-b:a", "64k"] : ["-c:a", "pcm_s16le"];
  const input = Buffer.from(audio.samples.buffer, audio.samples.byteOffset, audio.samples.byteLength);
  try {
    await ffmpegPipe(
      [
        ...["-nostdin", "-hide_banner", "-loglevel", "error", "-f", "s16le", "-ar", rate, "-ac", "1", "-i", "pipe:0"],
        ...codec,
        ...["-map_metadata", "-1", "-y", file],
      ],
      input,
      signal,
    );
    if (((await stat(file)).size ?? 0) === 0) throw new SpeechAudioError("ffmpeg wrote an empty file");
    return {
      data: await readFile(file),
      durationMs: Math.round((audio.samples.length / audio.sampleRate) * 1000),
      mime: format === "mp3" ? "audio/mpeg" : "audio/wav",
    };
  } finally {
    await rm(file, { force: true });
  }
}
