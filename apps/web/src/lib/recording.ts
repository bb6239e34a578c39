/**
 * What MediaRecorder should record: the browser's own format, uploaded under its own name (issue
 * 29) — WebM with Opus where the browser records it (Chrome, Edge, Firefox), else MP4 audio
 * (Safari), saved as .m4a. Nothing is relabelled. Shared by the records recorder and the voice
 * sample recorder.
 */
export interface RecordingFormat {
  mimeType: string;
  extension: "webm" | "m4a";
}

const WEBM_TYPES = ["audio/webm;codecs=opus", "audio/webm"];
const MP4_TYPES = ["audio/mp4;codecs=mp4a.40.2", "audio/mp4"];

export function pickRecordingFormat(isTypeSupported: (type: string) => boolean): RecordingFormat | null {
  const webm = WEBM_TYPES.find((type) => safe(isTypeSupported, type));
  if (webm) return { mimeType: webm, extension: "webm" };
  const mp4 = MP4_TYPES.find((type) => safe(isTypeSupported, type));
  if (mp4) return { mimeType: mp4, extension: "m4a" };
  return null;
}

function safe(fn: (type: string) => boolean, type: string): boolean {
  try {
    return fn(type);
  } catch {
    return false;
  }
}

/** The container a finished recording really has (the recorder may not honour the request). */
export function extensionForBlobType(
  type: string,
  fallback: RecordingFormat["extension"],
): RecordingFormat["extension"] {
  if (type.startsWith("audio/mp4") || type.startsWith("video/mp4")) return "m4a";
  if (type.includes("webm")) return "webm";
  return fallback;
}

export type MicProblem = "denied" | "noDevice" | "busy" | "unsupported" | "failed";

/** getUserMedia's DOMException names, as the page words them. */
export function micProblem(error: unknown): MicProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") return "denied";
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") return "noDevice";
  if (name === "NotReadableError" || name === "TrackStartError" || name === "AbortError") return "busy";
  return "failed";
}

/** RMS of a time-domain byte frame (128 = silence), scaled to 0..1 for the level meter. */
export function levelOf(frame: Uint8Array): number {
  if (frame.length === 0) return 0;
  let sum = 0;
  for (const v of frame) {
    const x = (v - 128) / 128;
    sum += x * x;
  }
  return Math.min(1, Math.sqrt(sum / frame.length) * 3);
}

const pad = (n: number) => String(n).padStart(2, "0");

/** A recording's file name: "录音-20250102-030405.m4a". */
export function recordingFileName(prefix: string, extension: string, date = new Date()): string {
  const stamp = `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
  return `${prefix}-${stamp}.${extension}`;
}
