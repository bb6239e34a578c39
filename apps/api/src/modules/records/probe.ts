import { execFile, spawn } from "node:child_process";
import { type Lang, mediaToolMissingMessage, StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import { programPath, tool } from "@yuelu/runtime";
import { fileTypeFromBuffer } from "file-type";

/** What the content of an upload's first bytes says it is. */
export type Sniffed =
  | { kind: "media"; mime: string }
  /** recognised, and not audio or video (an executable, an archive, an image, a document…) */
  | { kind: "other"; mime: string }
  /** no known signature (raw AAC/MP3 streams and some segments): ffprobe decides */
  | { kind: "unknown" };

// file-type names some audio/video containers with application/* types.
const MEDIA_APPLICATION_TYPES = new Set(["application/mxf", "application/vnd.ms-asf", "application/ogg"]);

/** Bytes of the head given to the signature check (file-type needs ~4 KiB; ID3 tags and ASF headers more). */
export const SNIFF_BYTES = 64 * 1024;

export async function sniff(head: Buffer): Promise<Sniffed> {
  const type = await fileTypeFromBuffer(head);
  if (!type) return { kind: "unknown" };
  const media =
    type.mime.startsWith("audio/") || type.mime.startsWith("video/") || MEDIA_APPLICATION_TYPES.has(type.mime);
  return { kind: media ? "media" : "other", mime: type.mime };
}

export interface MediaFacts {
  /** seconds, as probed (fractional) */
  duration: number;
  /** ffprobe's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" */
  container: string;
  /** codec of the first audio stream */
  codec: string;
  sampleRate: number;
  channels: number;
  hasVideo: boolean;
}

/** Why ffprobe refused a file (mapped to 20004 with a reason by the upload). */
export class ProbeRefused extends Error {
  constructor(readonly reason: "unreadable" | "no_audio") {
    super(`media probe refused the file: ${reason}`);
  }
}

/**
 * Demuxers ffprobe may use on an upload: the containers of the accepted extensions plus a few plain audio
 * ones. Whitelisting keeps playlist/concat-style demuxers (hls, concat, image sequences…), which open
 * other files or URLs, away from user input; only the `file` protocol is allowed for the same reason.
 */
const DEMUXERS = [
  "wav",
  "w64",
  "mp3",
  "mov",
  "mp4",
  "m4a",
  "3gp",
  "3g2",
  "mj2",
  "matroska",
  "webm",
  "flv",
  "asf",
  "mxf",
  "avi",
  "amr",
  "amrnb",
  "amrwb",
  "aac",
  "ogg",
  "flac",
  "aiff",
  "caf",
  "mpeg",
  "mpegts",
].join(",");

const PROBE_TIMEOUT_MS = 60_000;

/** 70001 naming the missing tool, in the user's language. */
export function mediaToolMissing(name: "ffprobe" | "ffmpeg", lang: Lang): AppError {
  return new AppError(StatusCode.EngineUnavailable, { detail: mediaToolMissingMessage(name, lang) });
}

/**
 * Refuses (70001) unless ffprobe can run here: checked before an upload's first byte is stored.
 * `configured`: the operator's FFPROBE_PATH (config).
 */
export function assertCanProbe(lang: Lang, configured?: string): void {
  if (!tool("ffprobe", configured)) throw mediaToolMissing("ffprobe", lang);
}

/**
 * Probes a local media file with ffprobe (execFile: no shell, the path is one argument). Throws
 * ProbeRefused when ffprobe cannot read it as media or it has no audio track.
 */
export async function probeMedia(
  localPath: string,
  lang: Lang = "zh",
  ffprobe = programPath("ffprobe"),
): Promise<MediaFacts> {
  const args = [
    "-v",
    "error",
    "-protocol_whitelist",
    "file",
    "-format_whitelist",
    DEMUXERS,
    "-show_entries",
    "format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration",
    "-of",
    "json",
    "--",
    localPath,
  ];
  let stdout: string;
  try {
    stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        ffprobe,
        args,
        { timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024, windowsHide: true },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw mediaToolMissing("ffprobe", lang);
    throw new ProbeRefused("unreadable");
  }
  const facts = parseProbe(stdout);
  if (facts.duration > 0) return facts;
  // A browser's MediaRecorder WebM (and some streamed Ogg) has no length in its header: read it off
  // the audio packets' timestamps instead (demuxing only, no decoding).
  const duration = await lastPacketEnd(localPath, ffprobe);
  if (duration <= 0) throw new ProbeRefused("unreadable");
  return { ...facts, duration };
}

/**
 * The end time (s) of the first audio track's last packet: ffprobe lists every packet's pts and
 * duration; the output is streamed and only the running maximum is kept, so an hour-long
 * recording (~180,000 Opus packets) costs no memory. 0 when nothing could be read.
 */
export function lastPacketEnd(localPath: string, ffprobe = programPath("ffprobe")): Promise<number> {
  const args = [
    "-v",
    "error",
    "-protocol_whitelist",
    "file",
    "-format_whitelist",
    DEMUXERS,
    "-select_streams",
    "a:0",
    "-show_entries",
    "packet=pts_time,duration_time",
    "-of",
    "csv=p=0",
    "--",
    localPath,
  ];
  return new Promise((resolve) => {
    const child = spawn(ffprobe, args, { stdio: ["ignore", "pipe", "ignore"], windowsHide: true });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    let end = 0;
    let rest = "";
    const take = (line: string) => {
      const [pts, duration] = line.split(",").map(Number);
      if (pts !== undefined && Number.isFinite(pts))
        end = Math.max(end, pts + (Number.isFinite(duration) ? (duration as number) : 0));
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) take(line);
    });
    child.on("error", () => {
      clearTimeout(timer);
      resolve(0);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      take(rest);
      resolve(code === 0 ? end : 0);
    });
  });
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number; duration?: string }[];
}

export function parseProbe(stdout: string): MediaFacts {
  let json: ProbeJson;
  try {
    json = JSON.parse(stdout) as ProbeJson;
  } catch {
    throw new ProbeRefused("unreadable");
  }
  const streams = json.streams ?? [];
  if (!json.format?.format_name) throw new ProbeRefused("unreadable");
  const audio = streams.find((s) => s.codec_type === "audio");
  if (!audio) throw new ProbeRefused("no_audio");
  const seconds = (v: string | undefined) => {
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  // The container's duration, else the longest stream's.
  // 0 when neither says (a live WebM recording): probeMedia then measures it from the packets.
  const duration = seconds(json.format.duration) || Math.max(0, ...streams.map((s) => seconds(s.duration)));
  return {
    duration,
    container: json.format.format_name,
    codec: audio.codec_name ?? "",
    sampleRate: Math.round(seconds(audio.sample_rate)),
    channels: audio.channels ?? 0,
    hasVideo: streams.some((s) => s.codec_type === "video"),
  };
}
