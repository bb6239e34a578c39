import { writeFile } from "node:fs/promises";
import { MAX_UPLOAD_SECONDS, MEDIA_LENGTH_TOLERANCE_SECONDS } from "@yuelu/contracts";
import { decodeStream, installHint, MediaDecodeError, PCM_RATE, programPath } from "@yuelu/runtime";

export const SAMPLE_RATE = PCM_RATE;

/** 16 kHz mono audio held as 16-bit samples (half the memory of floats: 3 h ≈ 346 MB). */
export interface Pcm {
  readonly samples: Int16Array | Float32Array;
  readonly length: number;
  /** samples [start, end) as floats in [-1, 1] (a copy) */
  slice(start: number, end: number): Float32Array;
}

export function pcmFrom(samples: Int16Array | Float32Array): Pcm {
  return {
    samples,
    length: samples.length,
    slice(start, end) {
      const s = Math.max(0, Math.floor(start));
      const e = Math.min(samples.length, Math.ceil(end));
      if (samples instanceof Float32Array) return samples.slice(s, Math.max(s, e));
      const out = new Float32Array(Math.max(0, e - s));
      for (let i = 0; i < out.length; i++) out[i] = samples[s + i]! / 32768;
      return out;
    },
  };
}

/** The ffmpeg this process runs (runtime/tools.ts: FFMPEG_PATH, else the system's, else the npm-packaged one). */
export const ffmpegBinary = () => programPath("ffmpeg");

export class AudioDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AudioDecodeError";
  }
}

/**
 * Decodes any media file ffmpeg reads to 16 kHz mono 16-bit PCM, streamed from the child process (the
 * product's one decode: runtime/media-decode.ts, as the upload measured it). At most `maxSeconds` are
 * decoded — for a user's file, the length charged plus MEDIA_LENGTH_TOLERANCE_SECONDS — into a buffer that
 * never grows past them: a file whose header lies costs the worker no more time or memory than was paid
 * for. `cut` says the file held more. `expectedSeconds` sizes the buffer and drives progress.
 */
export async function decodeToPcm(
  file: string,
  options: {
    expectedSeconds?: number;
    maxSeconds?: number;
    onProgress?: (fraction: number) => void;
    signal?: AbortSignal;
  } = {},
): Promise<Pcm & { cut: boolean }> {
  const cap = Math.ceil((options.maxSeconds ?? DEFAULT_MAX_SECONDS) * SAMPLE_RATE);
  const expected = Math.max(1, Math.ceil((options.expectedSeconds ?? 60) * SAMPLE_RATE));
  let buffer = sharedInt16(Math.min(cap, expected + SAMPLE_RATE));
  let length = 0;
  let carry: Buffer | null = null;
  let lastReport = 0;
  const take = (chunk: Buffer) => {
    let data = carry ? Buffer.concat([carry, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    carry = usable < data.length ? Buffer.from(data.subarray(usable)) : null;
    data = data.subarray(0, usable);
    const n = usable / 2;
    if (length + n > buffer.length) {
      const grown = sharedInt16(Math.min(cap, Math.max(buffer.length * 2, length + n)));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    if (data.byteOffset % 2 === 0) buffer.set(new Int16Array(data.buffer, data.byteOffset, n), length);
    else for (let i = 0; i < n; i++) buffer[length + i] = data.readInt16LE(i * 2);
    length += n;
    if (options.onProgress && length - lastReport > SAMPLE_RATE * 30) {
      lastReport = length;
      options.onProgress(Math.min(1, length / expected));
    }
  };
  let outcome: { cut: boolean };
  try {
    outcome = await decodeStream(file, {
      maxSeconds: cap / SAMPLE_RATE,
      onData: take,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof MediaDecodeError) {
      throw new AudioDecodeError(
        error.missing ? `ffmpeg is not installed: ${installHint("ffmpeg", process.env.FFMPEG_PATH)}` : error.message,
      );
    }
    throw error;
  }
  if (length === 0) throw new AudioDecodeError("the file holds no audio that ffmpeg can decode");
  options.onProgress?.(1);
  // A small unused tail stays (a view, no copy); a large one (a wrong duration guess) is trimmed.
  if (length >= buffer.length * 0.9) return { ...pcmFrom(buffer.subarray(0, length)), cut: outcome.cut };
  const exact = sharedInt16(length);
  exact.set(buffer.subarray(0, length));
  return { ...pcmFrom(exact), cut: outcome.cut };
}

/** No decode of anything is unbounded: a caller that names no limit gets the upload limit's. */
const DEFAULT_MAX_SECONDS = MAX_UPLOAD_SECONDS + MEDIA_LENGTH_TOLERANCE_SECONDS;

/**
 * 16-bit samples in shared memory, so a worker thread (speaker features) reads the recording without
 * a copy of it.
 */
function sharedInt16(length: number): Int16Array {
  return new Int16Array(new SharedArrayBuffer(length * 2));
}

/** Any AudioInput as Pcm: arrays are used as they are, paths decoded with ffmpeg. */
export async function loadAudio(input: Float32Array | Int16Array | string, signal?: AbortSignal): Promise<Pcm> {
  if (typeof input === "string") return decodeToPcm(input, { signal });
  return pcmFrom(input);
}

/** A 16-bit mono WAV file of `samples` (floats are clipped to [-1, 1]). */
export function encodeWav(samples: Float32Array | Int16Array, sampleRate = SAMPLE_RATE): Buffer {
  const out = Buffer.alloc(44 + samples.length * 2);
  out.write("RIFF", 0, "ascii");
  out.writeUInt32LE(36 + samples.length * 2, 4);
  out.write("WAVE", 8, "ascii");
  out.write("fmt ", 12, "ascii");
  out.writeUInt32LE(16, 16);
  out.writeUInt16LE(1, 20);
  out.writeUInt16LE(1, 22);
  out.writeUInt32LE(sampleRate, 24);
  out.writeUInt32LE(sampleRate * 2, 28);
  out.writeUInt16LE(2, 32);
  out.writeUInt16LE(16, 34);
  out.write("data", 36, "ascii");
  out.writeUInt32LE(samples.length * 2, 40);
  for (let i = 0; i < samples.length; i++) {
    const v = samples instanceof Int16Array ? samples[i]! : Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 32767);
    out.writeInt16LE(v, 44 + i * 2);
  }
  return out;
}

export async function writeWav(file: string, samples: Float32Array | Int16Array, sampleRate = SAMPLE_RATE) {
  await writeFile(file, encodeWav(samples, sampleRate));
}

export const msToSample = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000);
export const sampleToMs = (sample: number) => Math.round((sample * 1000) / SAMPLE_RATE);
