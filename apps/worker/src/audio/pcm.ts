import { writeFile } from "node:fs/promises";
// (the packages' own modules, not their indexes: the voice-print thread loads this file, and the indexes
// would load the whole runtime into it — ~70 MB)
import { MAX_UPLOAD_SECONDS, MEDIA_LENGTH_TOLERANCE_SECONDS } from "@yuelu/contracts/limits";
import { decodeStream, MediaDecodeError, PCM_RATE } from "@yuelu/runtime/media-decode";
import { installHint, programPath } from "@yuelu/runtime/tools";
import { PcmSpool } from "./spool.ts";

export const SAMPLE_RATE = PCM_RATE;

/**
 * 16 kHz mono audio. A decoded recording is held as 16-bit samples (half the memory of floats: 3 h ≈ 346 MB),
 * or, for a transcription, kept in a file and read window by window (audio/spool.ts); audio computed from one
 * (the front end's: audio/front-end.ts) is computed window by window as `slice` asks for it, so a long
 * recording is never held whole twice — or, spooled, at all.
 */
export interface Pcm {
  /**
   * every sample: the array itself for a recording held in memory; for a spooled or computed one all of it,
   * read or computed on first use and kept — a copy as long as the recording (tests, short clips): passes
   * over a long recording read `slice` windows instead
   */
  readonly samples: Int16Array | Float32Array;
  readonly length: number;
  /** samples [start, end) as floats in [-1, 1] (a copy) */
  slice(start: number, end: number): Float32Array;
  /** lets go of the file a spooled recording is read from (audio held in memory has none to let go) */
  close?(): void;
}

/**
 * The stretch a pass over a whole recording reads at a time (8 s): a whole number of the VAD's 10 ms frames
 * and of the front end's STFT hops, so window by window gives what one pass over the array gave.
 */
export const PCM_WINDOW = 8 * PCM_RATE;

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

/**
 * Audio of `length` samples that `render(start, end)` computes on demand (floats in [-1, 1] that are
 * whole 16-bit steps: what a 16-bit array of it would give): only the windows read are ever held.
 */
export function computedPcm(length: number, render: (start: number, end: number) => Float32Array): Pcm {
  const slice = (start: number, end: number) => {
    const s = Math.max(0, Math.floor(start));
    const e = Math.min(length, Math.ceil(end));
    return render(s, Math.max(s, e));
  };
  let all: Int16Array | undefined;
  return {
    length,
    /** computed on first use and kept (a copy as long as the recording) */
    get samples() {
      if (all) return all;
      all = sharedInt16(length);
      for (let at = 0; at < length; at += PCM_WINDOW) {
        const window = slice(at, at + PCM_WINDOW);
        for (let i = 0; i < window.length; i++) all[at + i] = Math.round(window[i]! * 32768);
      }
      return all;
    },
    slice,
  };
}

/** Whether `input` is a Pcm (not a bare array or a path). */
export const isPcm = (input: unknown): input is Pcm =>
  typeof input === "object" && input !== null && !ArrayBuffer.isView(input) && "slice" in input;

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
    /** keep the samples in a file in this folder, not in memory (audio/spool.ts); the caller closes it */
    spoolDir?: string;
  } = {},
): Promise<Pcm & { cut: boolean }> {
  const cap = Math.ceil((options.maxSeconds ?? DEFAULT_MAX_SECONDS) * SAMPLE_RATE);
  const expected = Math.max(1, Math.ceil((options.expectedSeconds ?? 60) * SAMPLE_RATE));
  const spool = options.spoolDir ? new PcmSpool(options.spoolDir) : undefined;
  let buffer = spool ? new Int16Array(0) : sharedInt16(Math.min(cap, expected + SAMPLE_RATE));
  let length = 0;
  let carry: Buffer | null = null;
  let lastReport = 0;
  const take = (chunk: Buffer) => {
    let data = carry ? Buffer.concat([carry, chunk]) : chunk;
    const usable = data.length - (data.length % 2);
    carry = usable < data.length ? Buffer.from(data.subarray(usable)) : null;
    data = data.subarray(0, usable);
    const n = usable / 2;
    if (spool) spool.append(data);
    else {
      if (length + n > buffer.length) {
        const grown = sharedInt16(Math.min(cap, Math.max(buffer.length * 2, length + n)));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      if (data.byteOffset % 2 === 0) buffer.set(new Int16Array(data.buffer, data.byteOffset, n), length);
      else for (let i = 0; i < n; i++) buffer[length + i] = data.readInt16LE(i * 2);
    }
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
    spool?.close();
    if (error instanceof MediaDecodeError) {
      throw new AudioDecodeError(
        error.missing ? `ffmpeg is not installed: ${installHint("ffmpeg", process.env.FFMPEG_PATH)}` : error.message,
      );
    }
    throw error;
  }
  if (length === 0) {
    spool?.close();
    throw new AudioDecodeError("the file holds no audio that ffmpeg can decode");
  }
  options.onProgress?.(1);
  // (assigned, not spread: a spooled recording's `samples` would read all of it)
  if (spool) return Object.assign(spool.finish(), { cut: outcome.cut });
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

/** Any AudioInput as Pcm: a Pcm and arrays are used as they are, paths decoded with ffmpeg. */
export async function loadAudio(input: Float32Array | Int16Array | string | Pcm, signal?: AbortSignal): Promise<Pcm> {
  if (typeof input === "string") return decodeToPcm(input, { signal });
  if (isPcm(input)) return input;
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
