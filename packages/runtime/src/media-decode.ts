import { spawn } from "node:child_process";
import { programPath } from "./tools.ts";

/**
 * The one way the product decodes a user's media: ffmpeg's default audio stream (no video, subtitles or
 * data), downmixed and resampled to raw PCM. The API measures an upload's length with it and the worker
 * hears the file with it, so what a user is charged for (the measured length) is exactly what the worker
 * can decode — a length written in a container's header is never trusted (anyone can edit those bytes).
 */

/** Speech recognition's rate: the measure and the transcription decode both use it. */
export const PCM_RATE = 16_000;

export interface PcmShape {
  sampleRate?: number;
  channels?: 1 | 2;
  /** 16-bit integers or 32-bit floats, little-endian */
  format?: "s16le" | "f32le";
}

/** ffmpeg's arguments for decoding `file` to raw PCM on stdout (never a shell: the path is one argument). */
export function pcmDecodeArgs(file: string, shape: PcmShape = {}): string[] {
  const { sampleRate = PCM_RATE, channels = 1, format = "s16le" } = shape;
  const codec = format === "s16le" ? "pcm_s16le" : "pcm_f32le";
  return [
    ...["-nostdin", "-hide_banner", "-loglevel", "error", "-i", file, "-vn", "-sn", "-dn"],
    ...["-ac", String(channels), "-ar", String(sampleRate), "-f", format, "-acodec", codec, "pipe:1"],
  ];
}

export const bytesPerSecond = (shape: PcmShape = {}) =>
  (shape.sampleRate ?? PCM_RATE) * (shape.channels ?? 1) * ((shape.format ?? "s16le") === "s16le" ? 2 : 4);

/** ffmpeg could not decode the file (or is missing: `missing`). */
export class MediaDecodeError extends Error {
  constructor(
    message: string,
    readonly missing = false,
  ) {
    super(message);
    this.name = "MediaDecodeError";
  }
}

export interface DecodeStream {
  /** the most seconds to decode: past them ffmpeg is stopped and `cut` is true (bounded time and memory) */
  maxSeconds: number;
  shape?: PcmShape;
  /** each piece of PCM as it comes, never more than `maxSeconds` in all */
  onData?: (chunk: Buffer) => void;
  signal?: AbortSignal;
  /** the ffmpeg to run (default: runtime/tools.ts's choice) */
  ffmpeg?: string;
}

export interface DecodeOutcome {
  /** bytes of PCM passed to onData */
  bytes: number;
  /** true when the file held more than maxSeconds (ffmpeg was stopped there) */
  cut: boolean;
}

/**
 * Decodes `file` through ffmpeg, streaming the PCM to `onData` and stopping at `maxSeconds`: a file that
 * claims one second and holds two hours costs at most `maxSeconds` of decoding, whatever its header says.
 * Rejects with MediaDecodeError when ffmpeg fails before the cap.
 */
export function decodeStream(file: string, options: DecodeStream): Promise<DecodeOutcome> {
  const rate = options.shape?.sampleRate ?? PCM_RATE;
  const frameBytes = bytesPerSecond(options.shape) / rate;
  const limit = Math.max(0, Math.floor(options.maxSeconds * rate)) * frameBytes;
  return new Promise((resolve, reject) => {
    const child = spawn(options.ffmpeg ?? programPath("ffmpeg"), pcmDecodeArgs(file, options.shape), {
      stdio: ["ignore", "pipe", "pipe"],
      signal: options.signal,
      windowsHide: true,
    });
    let bytes = 0;
    let cut = false;
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      if (cut) return;
      const room = limit - bytes;
      if (chunk.length > room) {
        cut = true;
        if (room > 0) options.onData?.(chunk.subarray(0, room));
        bytes = limit;
        child.kill("SIGKILL");
        return;
      }
      bytes += chunk.length;
      options.onData?.(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 4000) stderr += chunk.toString();
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(error.code === "ENOENT" ? new MediaDecodeError("ffmpeg is not installed", true) : error);
    });
    child.on("close", (code) => {
      if (cut) return resolve({ bytes, cut });
      if (code !== 0) {
        return reject(
          new MediaDecodeError(`ffmpeg could not decode the audio (exit ${code}): ${stderr.trim().slice(0, 500)}`),
        );
      }
      resolve({ bytes, cut: false });
    });
  });
}

/** Seconds of audio ffmpeg decodes from `file`, counted as it streams (nothing kept), at most `maxSeconds`. */
export async function decodedSeconds(
  file: string,
  options: Omit<DecodeStream, "onData" | "shape">,
): Promise<{ seconds: number; cut: boolean }> {
  const { bytes, cut } = await decodeStream(file, options);
  return { seconds: bytes / bytesPerSecond(), cut };
}
