/**
 * Live captions' values (docs/live.md) without zod, for the web bundle (`@yuelu/contracts/constants`);
 * the message schemas are in live.ts.
 */

export const LIVE_PATH = "/voice_yuelu/live";
export const LIVE_SAMPLE_RATE = 16_000;
/** bytes before the PCM in each binary frame: the offset (samples) of its first sample, float64 LE */
export const LIVE_FRAME_HEADER_BYTES = 8;
/** the largest binary frame accepted (~2 s of audio): a client sends 100–250 ms at a time */
export const LIVE_FRAME_MAX_BYTES = LIVE_FRAME_HEADER_BYTES + 2 * 2 * LIVE_SAMPLE_RATE;
/** how long a session whose connection dropped waits for its client to resume it */
export const LIVE_RESUME_WINDOW_MS = 30_000;
/**
 * Audio the browser keeps until the server acknowledges it (a long outage's catch-up); a worker
 * decodes at most this much ahead of real time (LIVE_CATCH_UP_SECONDS, docs/live.md "Metering").
 */
export const LIVE_CLIENT_BUFFER_SECONDS = 120;

export const LIVE_LANGUAGES = ["zh", "en", "auto"] as const;
export type LiveLanguage = (typeof LIVE_LANGUAGES)[number];

/** WebSocket close codes (4000–4999 are the application's). The reason is the message, in the caller's language. */
export const LiveCloseCode = {
  /** the recording stopped and every caption was sent */
  Done: 1000,
  NotLoggedIn: 4401,
  /** a malformed control message or frame (a gap in the offsets, a frame too large) */
  InvalidParams: 4400,
  /** the user already has LIVE_MAX_PER_USER streams open */
  TooMany: 4429,
  /** no transcription time left (after `error` 50002 or 20001): live audio is transcription time */
  NoTimeLeft: 4402,
  /** no worker can decode this language now (none running, all full, no model) */
  Unavailable: 4503,
  /** the session to resume is gone (expired, another user's, its worker stopped) */
  Gone: 4410,
} as const;

/** The close code that follows an `error` of this catalogue code. */
export function liveCloseCodeOf(statusCode: number): number {
  if (statusCode === 10003) return LiveCloseCode.TooMany;
  if (statusCode === 50002 || statusCode === 20001) return LiveCloseCode.NoTimeLeft;
  if (statusCode === 10001 || statusCode === 10006) return LiveCloseCode.NotLoggedIn;
  return LiveCloseCode.Unavailable;
}

/** One binary frame: the header (offset) then the PCM. */
export function encodeLiveFrame(offset: number, pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(LIVE_FRAME_HEADER_BYTES + pcm.byteLength);
  new DataView(out.buffer).setFloat64(0, offset, true);
  out.set(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength), LIVE_FRAME_HEADER_BYTES);
  return out;
}

/** The offset and samples of a binary frame, or null when it is malformed. */
export function decodeLiveFrame(data: Uint8Array): { offset: number; pcm: Int16Array } | null {
  if (data.byteLength < LIVE_FRAME_HEADER_BYTES || (data.byteLength - LIVE_FRAME_HEADER_BYTES) % 2 !== 0) return null;
  if (data.byteLength > LIVE_FRAME_MAX_BYTES) return null;
  const offset = new DataView(data.buffer, data.byteOffset, data.byteLength).getFloat64(0, true);
  if (!Number.isSafeInteger(offset) || offset < 0) return null;
  // copied: the view must be 2-byte aligned and must not keep the socket's buffer alive. Not with
  // `data.slice`: a Node Buffer's slice is a view, at any offset of the socket's pooled buffer (frames
  // that arrive together in one read sit at odd offsets: an Int16Array over them throws)
  const bytes = new Uint8Array(data.byteLength - LIVE_FRAME_HEADER_BYTES);
  bytes.set(data.subarray(LIVE_FRAME_HEADER_BYTES));
  return { offset, pcm: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2) };
}
