import { readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ffmpegPipe } from "./speech-audio.ts";

/**
 * Float audio in and out of ffmpeg for the voice jobs (docs/voice.md): songs are decoded to two float
 * channels, results encoded to MP3. The bundled ffmpeg (@ffmpeg-installer) does both on a bare machine.
 */

const QUIET = ["-nostdin", "-hide_banner", "-loglevel", "error"];

/** The file's audio as float channels at `sampleRate` (mono input gives two equal channels). */
export async function decodeChannels(
  file: string,
  sampleRate: number,
  channels: 1 | 2,
  signal?: AbortSignal,
): Promise<Float32Array[]> {
  const out = await ffmpegPipe(
    [
      ...QUIET,
      "-i",
      file,
      "-vn",
      "-sn",
      "-dn",
      "-ac",
      String(channels),
      "-ar",
      String(sampleRate),
      "-f",
      "f32le",
      "pipe:1",
    ],
    Buffer.alloc(0),
    signal,
  );
  const all = new Float32Array(out.buffer, out.byteOffset, Math.floor(out.byteLength / 4));
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
