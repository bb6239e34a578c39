import { spawn } from "node:child_process";
import type { OpenAiSpeechFormat } from "@yuelu/contracts";
import { programPath } from "@yuelu/runtime";

/** What each speech format is sent as. */
export const SPEECH_CONTENT_TYPES: Record<OpenAiSpeechFormat, string> = {
  mp3: "audio/mpeg",
  wav: "audio/wav",
  opus: "audio/ogg",
  flac: "audio/flac",
  aac: "audio/aac",
  pcm: "audio/pcm",
};

/** The formats the TTS pipeline makes itself (docs/tts.md "Encode"); the others are converted from its wav. */
export type ConvertedFormat = Exclude<OpenAiSpeechFormat, "mp3" | "wav">;

export const isConverted = (format: OpenAiSpeechFormat): format is ConvertedFormat =>
  format !== "mp3" && format !== "wav";

/** OpenAI's containers: Ogg Opus, FLAC, AAC in ADTS, raw 24 kHz 16-bit little-endian mono PCM. */
const ENCODE: Record<ConvertedFormat, string[]> = {
  opus: ["-c:a", "libopus", "-b:a", "48k", "-f", "ogg"],
  flac: ["-c:a", "flac", "-f", "flac"],
  aac: ["-c:a", "aac", "-b:a", "64k", "-f", "adts"],
  pcm: ["-ac", "1", "-ar", "24000", "-c:a", "pcm_s16le", "-f", "s16le"],
};

/**
 * A stored work's audio in another format, with the ffmpeg the install found (runtime/tools.ts:
 * FFMPEG_PATH, else PATH, else the npm-packaged one). Read whole: a work is at most a few minutes of
 * speech, and a conversion that fails must answer an error rather than half a file.
 */
export function transcode(inputFile: string, format: ConvertedFormat, ffmpegPath?: string): Promise<Buffer> {
  const args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-i", inputFile, "-vn", ...ENCODE[format], "pipe:1"];
  return new Promise((resolve, reject) => {
    const ffmpeg = spawn(programPath("ffmpeg", ffmpegPath), args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let errors = "";
    ffmpeg.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    ffmpeg.stderr.on("data", (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-2000);
    });
    ffmpeg.on("error", reject);
    ffmpeg.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(chunks));
      else reject(new Error(`ffmpeg could not make ${format} (exit ${code}): ${errors.trim()}`));
    });
  });
}
