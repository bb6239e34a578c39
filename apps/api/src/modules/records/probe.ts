import { spawn } from "node:child_process";
import { type Lang, MEDIA_LENGTH_TOLERANCE_SECONDS, mediaToolMissingMessage, StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import { decodedSeconds, MediaDecodeError, programPath, tool } from "@yuelu/runtime";
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
  /** seconds of audio the file decodes to (fractional): what the product hears, and charges */
  duration: number;
  /** seconds its header declares (0: none), for the record's sake only: never charged */
  declared: number;
  /** ffprobe's demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" */
  container: string;
  /** codec of the first audio stream */
  codec: string;
  sampleRate: number;
  channels: number;
  hasVideo: boolean;
}

/** Why a file was refused as media (mapped to 20004 with a reason by the upload). */
export type ProbeRefusal = "unreadable" | "no_audio" | "too_long" | "length_mismatch";

export class ProbeRefused extends Error {
  constructor(readonly reason: ProbeRefusal) {
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

/** The operator's FFPROBE_PATH / FFMPEG_PATH (config); unset: PATH, else the npm-packaged copies. */
export interface MediaTools {
  ffprobePath?: string | undefined;
  ffmpegPath?: string | undefined;
}

export const mediaTools = (config: { FFPROBE_PATH?: string | undefined; FFMPEG_PATH?: string | undefined }) => ({
  ffprobePath: config.FFPROBE_PATH,
  ffmpegPath: config.FFMPEG_PATH,
});

/**
 * Refuses (70001) unless ffprobe and ffmpeg can run here (an upload is identified by the one and
 * measured by the other): checked before an upload's first byte is stored.
 */
export function assertCanProbe(lang: Lang, tools: MediaTools = {}): void {
  if (!tool("ffprobe", tools.ffprobePath)) throw mediaToolMissing("ffprobe", lang);
  if (!tool("ffmpeg", tools.ffmpegPath)) throw mediaToolMissing("ffmpeg", lang);
}

/**
 * What a local media file is and how long it really is. ffprobe says what it is (container, codec, an
 * audio track) and what its header declares; the length is measured by decoding it exactly as the
 * worker will (runtime/media-decode.ts), counted and thrown away, and stopped past `maxSeconds`. So the
 * length charged is the length heard: a FLAC whose header was edited to claim 11 s of its 132 s is
 * measured at 132 s — and refused, since its header and content disagree.
 *
 * Refusals (ProbeRefused): unreadable or no audio track; longer than `maxSeconds` (by the header or its
 * estimate, before any decoding — claiming more gains nothing — or by the decode); a header that declares a
 * length more than MEDIA_LENGTH_TOLERANCE_SECONDS away from the audio (damaged or edited; a length ffprobe
 * only estimated from the bitrate is no declaration).
 */
export async function probeMedia(
  localPath: string,
  options: { lang?: Lang; tools?: MediaTools; maxSeconds: number },
): Promise<MediaFacts> {
  const lang = options.lang ?? "zh";
  const tools = options.tools ?? {};
  const probed = await runFfprobe(localPath, programPath("ffprobe", tools.ffprobePath), lang);
  const facts = parseProbe(probed.stdout, probed.estimated);
  const slack = MEDIA_LENGTH_TOLERANCE_SECONDS;
  if (facts.declared > options.maxSeconds + slack) throw new ProbeRefused("too_long");
  let measured: { seconds: number; cut: boolean };
  try {
    measured = await decodedSeconds(localPath, {
      maxSeconds: options.maxSeconds + slack,
      ffmpeg: programPath("ffmpeg", tools.ffmpegPath),
    });
  } catch (error) {
    if (error instanceof MediaDecodeError && error.missing) throw mediaToolMissing("ffmpeg", lang);
    throw new ProbeRefused("unreadable");
  }
  if (measured.cut || measured.seconds > options.maxSeconds) throw new ProbeRefused("too_long");
  if (measured.seconds <= 0) throw new ProbeRefused("unreadable");
  if (disagrees(facts, measured.seconds)) throw new ProbeRefused("length_mismatch");
  const { estimated: _estimated, audioDeclared: _audioDeclared, ...what } = facts;
  return { ...what, duration: measured.seconds };
}

/**
 * Whether the header's declared length and the decoded audio differ by more than the tolerance. A video
 * whose header gives no length of the audio track itself declares the whole file's (its picture may run
 * longer than its sound): there only a header claiming less than the audio holds counts.
 */
function disagrees(facts: ParsedProbe, decoded: number): boolean {
  if (facts.declared <= 0 || facts.estimated) return false;
  const slack = MEDIA_LENGTH_TOLERANCE_SECONDS;
  if (facts.declared < decoded - slack) return true;
  return facts.declared > decoded + slack && !(facts.hasVideo && !facts.audioDeclared);
}

/**
 * ffprobe's JSON, and whether it had to estimate the length from the bitrate (its warning says so; the
 * JSON does not). stdout is kept up to 4 MiB and stderr's first 64 KiB: a file that makes ffprobe warn
 * endlessly costs no memory.
 */
function runFfprobe(localPath: string, ffprobe: string, lang: Lang): Promise<{ stdout: string; estimated: boolean }> {
  const args = [
    ...["-v", "warning", "-protocol_whitelist", "file", "-format_whitelist", DEMUXERS],
    ...["-show_entries", "format=format_name,duration:stream=codec_type,codec_name,sample_rate,channels,duration"],
    ...["-of", "json", "--", localPath],
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(ffprobe, args, { stdio: ["ignore", "pipe", "pipe"], windowsHide: true });
    const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_TIMEOUT_MS);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      if (stdout.length < 4 << 20) stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < 64 << 10) stderr += chunk;
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === "ENOENT" ? mediaToolMissing("ffprobe", lang) : new ProbeRefused("unreadable"));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new ProbeRefused("unreadable"));
      resolve({ stdout, estimated: /Estimating duration from bitrate/i.test(stderr) });
    });
  });
}

interface ProbeJson {
  format?: { format_name?: string; duration?: string };
  streams?: { codec_type?: string; codec_name?: string; sample_rate?: string; channels?: number; duration?: string }[];
}

/** What ffprobe says of a file; `declared` is what its header claims, never what is charged. */
export type ParsedProbe = Omit<MediaFacts, "duration"> & {
  /** true when the header holds no length and ffprobe estimated `declared` from the bitrate (an MP3 without a Xing frame) */
  estimated: boolean;
  /** whether `declared` is the audio track's own length (not only the whole file's) */
  audioDeclared: boolean;
};

export function parseProbe(stdout: string, estimated = false): ParsedProbe {
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
  // The audio track's own length, else the container's, else the longest stream's; none for a live
  // WebM recording.
  const audioSeconds = seconds(audio.duration);
  return {
    declared: audioSeconds || seconds(json.format.duration) || Math.max(0, ...streams.map((s) => seconds(s.duration))),
    estimated,
    audioDeclared: audioSeconds > 0,
    container: json.format.format_name,
    codec: audio.codec_name ?? "",
    sampleRate: Math.round(seconds(audio.sample_rate)),
    channels: audio.channels ?? 0,
    hasVideo: streams.some((s) => s.codec_type === "video"),
  };
}
