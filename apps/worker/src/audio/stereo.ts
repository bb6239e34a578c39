import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { decodeStream } from "@yuelu/runtime";
import { ffmpegPipe } from "./speech-audio.ts";

/**
 * Float audio in and out of ffmpeg for the voice jobs (docs/voice.md): songs are decoded to two float
 * channels, results encoded to MP3. The bundled ffmpeg (@ffmpeg-installer) does both on a bare machine.
 */

const QUIET = ["-nostdin", "-hide_banner", "-loglevel", "error"];

/**
 * The file's audio as float channels at `sampleRate` (mono input gives two equal channels), through the
 * product's one decode (runtime/media-decode.ts), stopped at `maxSeconds`: a song or a sample is decoded
 * no further than the length its upload was measured and accepted at, whatever its header claims.
 */
export async function decodeChannels(
  file: string,
  sampleRate: number,
  channels: 1 | 2,
  maxSeconds: number,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const chunks: Buffer[] = [];
  await decodeStream(file, {
    maxSeconds,
    shape: { sampleRate, channels, format: "f32le" },
    onData: (chunk) => chunks.push(chunk),
    ...(signal ? { signal } : {}),
  });
  // a buffer of its own (offset 0), as a Float32Array view needs 4-byte alignment
  const out = new Uint8Array(Buffer.concat(chunks));
  const all = new Float32Array(out.buffer, 0, Math.floor(out.byteLength / 4));
  if (channels === 1) return [Float32Array.from(all)];
  const frames = Math.floor(all.length / 2);
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = all[2 * i]!;
    right[i] = all[2 * i + 1]!;
  }
  return [left, right];
}

/** Channels as an MP3 file's bytes (peaks above full scale are limited first, so nothing clips). */
export async function encodeMp3(channels: Float32Array[], sampleRate: number, signal?: AbortSignal): Promise<Buffer> {
  const frames = channels[0]?.length ?? 0;
  let peak = 0;
  for (const ch of channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]!));
  const gain = peak > 0.98 ? 0.98 / peak : 1;
  const interleaved = new Float32Array(frames * channels.length);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < channels.length; c++) interleaved[i * channels.length + c] = channels[c]![i]! * gain;
  }
  const file = path.join(os.tmpdir(), `yuelu-voice-${process.pid}-${Math.random().toString(36).slice(2)}.mp3`);
  try {
    await ffmpegPipe(
      [
        ...QUIET,
        ...["-f", "f32le", "-ar", String(sampleRate), "-ac", String(channels.length), "-i", "pipe:0"],
        ...["-c:a", "libmp3lame", "-b:a", channels.length === 2 ? "160k" : "96k", "-map_metadata", "-1", "-y", file],
      ],
      Buffer.from(interleaved.buffer),
      signal,
    );
    return await readFile(file);
  } finally {
    await rm(file, { force: true });
  }
}
