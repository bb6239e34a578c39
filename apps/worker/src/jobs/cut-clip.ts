import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { claimClip, completeClip, type DomainContext, removeClipFiles } from "@yuelu/domain";
import { type FileStore, programPath } from "@yuelu/runtime";

const run = promisify(execFile);

/**
 * A clip cut from its record (docs/clips.md, issue 45): the record's file, from the FileStore (a local
 * copy where the store is S3), read by ffmpeg from just before the clip's start — input seeking, so only
 * the clip is decoded — to its end, and only that range encoded: AAC in m4a for audio; for a source with a
 * video stream, H.264 + AAC in mp4 and the same range's sound as m4a, in one ffmpeg run. Encoding the range
 * (not copying packets) makes the clip start and end where it was asked, to the sample, whatever the
 * source's keyframes or frames. Nothing is charged. A clip deleted while it was cut leaves no file.
 */

export class ClipGoneError extends Error {
  constructor(readonly clipId: number) {
    super(`clip ${clipId} is gone or no longer waiting to be cut`);
    this.name = "ClipGoneError";
  }
}

/** A cut no attempt can make: the record's file is missing, or ffmpeg cannot read it. */
export class PermanentClipError extends Error {
  constructor(
    readonly reason: "source-missing" | "unreadable",
    message: string,
  ) {
    super(message);
    this.name = "PermanentClipError";
  }
}

export function clipFailureOf(error: unknown): { reason: string; detail: string } {
  if (error instanceof PermanentClipError) return { reason: error.reason, detail: error.message };
  return { reason: "failed", detail: (error as Error)?.message ?? String(error) };
}

export interface CutClipContext {
  domain: Pick<DomainContext, "db" | "clock">;
  files: FileStore;
  log?: { info(obj: unknown, msg?: string): void };
}

export async function cutClip(clipId: number, ctx: CutClipContext) {
  const claimed = await claimClip(ctx.domain, clipId);
  if (!claimed) throw new ClipGoneError(clipId);
  const { clip, record } = claimed;
  if ((await ctx.files.size(record.storageKey)) === null) {
    throw new PermanentClipError("source-missing", `the record's file ${record.storageKey} is not in the store`);
  }
  const dir = await mkdtemp(path.join(tmpdir(), "yuelu-clip-"));
  const started = Date.now();
  try {
    const cut = await ctx.files.withLocalCopy(record.storageKey, async (source) => {
      const video = await hasVideo(source);
      const audioFile = path.join(dir, "clip.m4a");
      const videoFile = path.join(dir, "clip.mp4");
      await encodeRange(
        source,
        { startMs: clip.startTime, endMs: clip.endTime },
        video ? { videoFile, audioFile } : { audioFile },
      );
      return { video, audioFile, videoFile };
    });
    const base = `clips/${clip.userId}/${clip.id}-${randomUUID()}`;
    const audioKey = `${base}.m4a`;
    const storageKey = cut.video ? `${base}.mp4` : audioKey;
    const fileSize = (await stat(cut.video ? cut.videoFile : cut.audioFile)).size;
    await ctx.files.putFile(audioKey, cut.audioFile);
    if (cut.video) await ctx.files.putFile(storageKey, cut.videoFile);
    const done = await completeClip(ctx.domain, clipId, {
      kind: cut.video ? "video" : "audio",
      storageKey,
      audioKey,
      fileSize,
    });
    if (!done) {
      // deleted while it was cut: what was written goes too
      await removeClipFiles({ files: ctx.files }, [{ storageKey, audioKey }]);
      throw new ClipGoneError(clipId);
    }
    ctx.log?.info(
      {
        clipId,
        fileId: clip.fileId,
        kind: cut.video ? "video" : "audio",
        ms: clip.endTime - clip.startTime,
        wallMs: Date.now() - started,
      },
      "clip cut",
    );
    return { status: "done" as const, kind: cut.video ? "video" : "audio", fileSize };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Whether the file has a video stream that is not a cover picture. */
async function hasVideo(file: string): Promise<boolean> {
  try {
    const { stdout } = await run(
      programPath("ffprobe"),
      ["-v", "error", "-show_entries", "stream=codec_type:stream_disposition=attached_pic", "-of", "json", file],
      { maxBuffer: 4 * 1024 * 1024 },
    );
    const streams = (JSON.parse(stdout).streams ?? []) as {
      codec_type?: string;
      disposition?: { attached_pic?: number };
    }[];
    return streams.some((s) => s.codec_type === "video" && !s.disposition?.attached_pic);
  } catch (error) {
    throw new PermanentClipError("unreadable", `ffprobe cannot read the record's file: ${(error as Error).message}`);
  }
}

/**
 * ffmpeg, seeking the input to the range's start (only the range is decoded) and encoding `-t` of it: the
 * audio as AAC/m4a, and with `videoFile` the picture as H.264 with the sound in mp4 too.
 */
export async function encodeRange(
  source: string,
  range: { startMs: number; endMs: number },
  out: { audioFile: string; videoFile?: string },
): Promise<void> {
  const seconds = (ms: number) => (ms / 1000).toFixed(3);
  const input = ["-hide_banner", "-v", "error", "-y", "-ss", seconds(range.startMs), "-i", source];
  const length = ["-t", seconds(range.endMs - range.startMs)];
  const audio = ["-map", "0:a:0", "-vn", "-sn", "-dn", "-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart"];
  const video = (codec: string[]) => [
    ...["-map", "0:v:0", "-map", "0:a:0?", "-sn", "-dn"],
    ...codec,
    ...["-c:a", "aac", "-b:a", "128k", "-movflags", "+faststart"],
  ];
  const x264 = ["-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-pix_fmt", "yuv420p"];
  const args = (codec: string[]) =>
    out.videoFile
      ? [...input, ...length, ...video(codec), out.videoFile, ...length, ...audio, out.audioFile]
      : [...input, ...length, ...audio, out.audioFile];
  try {
    await run(programPath("ffmpeg"), args(x264), { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    // an ffmpeg without libx264: the pictures copied from the keyframe before the start (the sound is still cut exactly)
    if (out.videoFile && /libx264|Unknown encoder/i.test(String((error as { stderr?: string }).stderr ?? ""))) {
      await run(programPath("ffmpeg"), args(["-c:v", "copy"]), { maxBuffer: 16 * 1024 * 1024 });
      return;
    }
    throw new PermanentClipError(
      "unreadable",
      `ffmpeg could not cut the clip: ${String((error as { stderr?: string }).stderr ?? error).slice(0, 400)}`,
    );
  }
}
