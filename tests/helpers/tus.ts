import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import * as tus from "tus-js-client";

/** The creation endpoint of resumable uploads (issue 31). */
export const TUS_PATH = "/voice_yuelu/api/v1/audio/uploads";

const root = path.resolve(import.meta.dirname, "../..");
/** Real speech (JFK's inaugural, 11 s) shipped inside an npm package. */
const JFK_WAV = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav");

/**
 * A long real-speech recording: JFK's 11 s looped for `seconds`, mono mp3 at `kbps` (20 minutes at
 * 32 kbit/s: ~4.8 MB), written into `dir`.
 */
export async function longSpeechMp3(dir: string, seconds = 1200, kbps = 32): Promise<string> {
  const file = path.join(dir, `speech-${seconds}s-${kbps}k.mp3`);
  await promisify(execFile)("ffmpeg", [
    ...["-hide_banner", "-v", "error", "-y", "-stream_loop", "-1", "-i", JFK_WAV],
    ...["-t", String(seconds), "-ac", "1", "-c:a", "libmp3lame", "-b:a", `${kbps}k`, file],
  ]);
  return file;
}

export interface TusAnswer {
  status: number;
  body: string;
  headers: (name: string) => string | undefined;
  url: string | null;
}

export interface TusRun {
  upload: tus.Upload;
  /** settles with the last response (success) or the error response (refusal) */
  done: Promise<TusAnswer>;
  /** the Upload-Offset of every PATCH sent, in order */
  patchOffsets: number[];
}

/**
 * Uploads `file` with the official tus-js-client as an independent client would: `cookie` as its session,
 * `lang: en`, the name and type as Upload-Metadata. No retries unless `retryDelays` says so.
 */
export function tusUpload(
  origin: string,
  file: string | Buffer,
  options: {
    cookie?: string;
    filename?: string;
    chunkSize?: number;
    uploadUrl?: string;
    retryDelays?: number[];
    uploadDataDuringCreation?: boolean;
    metadata?: Record<string, string>;
    onChunkComplete?: (chunk: number, accepted: number, total: number) => void;
  } = {},
): TusRun {
  const patchOffsets: number[] = [];
  let upload!: tus.Upload;
  const done = new Promise<TusAnswer>((resolve, reject) => {
    const answer = (res: tus.HttpResponse) => ({
      status: res.getStatus(),
      body: res.getBody(),
      headers: (name: string) => res.getHeader(name),
      url: upload.url,
    });
    const source = typeof file === "string" ? createReadStream(file) : file;
    upload = new tus.Upload(source, {
      endpoint: `${origin}${TUS_PATH}`,
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      headers: { lang: "en", ...(options.cookie ? { Cookie: options.cookie } : {}) },
      metadata: {
        filename: options.filename ?? (typeof file === "string" ? path.basename(file) : "upload.bin"),
        filetype: "audio/mpeg",
        ...options.metadata,
      },
      chunkSize: options.chunkSize ?? 1024 * 1024,
      retryDelays: options.retryDelays ?? null,
      uploadDataDuringCreation: options.uploadDataDuringCreation ?? false,
      storeFingerprintForResuming: false,
      onBeforeRequest(req) {
        if (req.getMethod() === "PATCH") patchOffsets.push(Number(req.getHeader("Upload-Offset")));
      },
      ...(options.onChunkComplete ? { onChunkComplete: options.onChunkComplete } : {}),
      onSuccess: ({ lastResponse }) => resolve(answer(lastResponse)),
      onError(error) {
        const res = (error as tus.DetailedError).originalResponse;
        if (res) resolve(answer(res));
        else reject(error);
      },
    });
    upload.start();
  });
  return { upload, done, patchOffsets };
}
