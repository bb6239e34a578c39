import { z } from "zod";
import { LIVE_LANGUAGES } from "./live-constants.ts";

/**
 * Live captions while recording (docs/live.md). The browser opens a WebSocket on
 * `/voice_yuelu/live` (session cookie), sends one JSON control message (`start` or `resume`), then
 * binary audio frames: LIVE_FRAME_HEADER_BYTES of header (the frame's first sample offset, a
 * little-endian float64) followed by 16 kHz mono 16-bit little-endian PCM. The server answers JSON
 * messages only. The same messages travel between the API and the worker that decodes the stream.
 */

// ---- client → server (text frames) ----

export const ZLiveStart = z.object({
  type: z.literal("start"),
  language: z.enum(LIVE_LANGUAGES).default("auto"),
});
export const ZLiveResume = z.object({
  type: z.literal("resume"),
  sessionId: z.string().min(1).max(200),
});
/** the recording stopped: decode what is left, send the last finals, then `closed` */
export const ZLiveStop = z.object({ type: z.literal("stop") });
export const ZLiveClientMessage = z.discriminatedUnion("type", [ZLiveStart, ZLiveResume, ZLiveStop]);
export type LiveClientMessage = z.infer<typeof ZLiveClientMessage>;

// ---- server → client ----

export const ZLiveFinalSegment = z.object({
  text: z.string(),
  startMs: z.number().nonnegative(),
  endMs: z.number().nonnegative(),
});
export type LiveFinalSegment = z.infer<typeof ZLiveFinalSegment>;

export const ZLiveServerMessage = z.discriminatedUnion("type", [
  /**
   * The session is open (or resumed): `received` is how many samples the server holds — the client
   * (re)sends from there. On resume, `finals` and `partial` repeat the captions so far.
   */
  z.object({
    type: z.literal("ready"),
    sessionId: z.string(),
    engine: z.string(),
    language: z.enum(["zh", "en"]),
    received: z.number().int().nonnegative(),
    finals: z.array(ZLiveFinalSegment),
    partial: z.string(),
  }),
  /** samples received so far: the client may forget its copy of the audio before this offset */
  z.object({ type: z.literal("ack"), received: z.number().int().nonnegative() }),
  /** the text of the speech since the last final: it may still change */
  z.object({ type: z.literal("partial"), text: z.string(), startMs: z.number().nonnegative() }),
  /** a span whose text no longer changes */
  z.object({
    type: z.literal("final"),
    text: z.string(),
    startMs: z.number().nonnegative(),
    endMs: z.number().nonnegative(),
  }),
  /** live captions cannot be made for this language here (e.g. no streaming Chinese model) */
  z.object({ type: z.literal("unavailable"), language: z.enum(LIVE_LANGUAGES), reason: z.string() }),
  /** a refusal or failure: a catalogue code and its message; the socket closes after it */
  z.object({ type: z.literal("error"), code: z.number().int(), message: z.string() }),
  /** after `stop`: every final was sent; `received` samples were decoded in all */
  z.object({ type: z.literal("closed"), received: z.number().int().nonnegative() }),
]);
export type LiveServerMessage = z.infer<typeof ZLiveServerMessage>;

// ---- API ↔ worker (docs/live.md "Between the API and the workers") ----

/** The API's first message on a worker's live socket: whose stream it is, and which. */
/** `lang`: the language of the page, for the messages the worker sends it (a refused charge…) */
const ZLang = z.enum(["zh", "en"]).default("zh");
export const ZLiveWorkerHello = z.discriminatedUnion("type", [
  z.object({ type: z.literal("open"), userId: z.number().int(), language: z.enum(LIVE_LANGUAGES), lang: ZLang }),
  z.object({
    type: z.literal("resume"),
    userId: z.number().int(),
    sessionId: z.string().min(1).max(200),
    lang: ZLang,
  }),
]);
/** as the API writes it (`lang` may be left out) */
export type LiveWorkerHello = z.input<typeof ZLiveWorkerHello>;
/** as the worker reads it */
export type ParsedLiveWorkerHello = z.output<typeof ZLiveWorkerHello>;

/**
 * What only the API sees from a worker: `full` (it decodes LIVE_MAX_SESSIONS streams already: try
 * another), `gone` (no such session for that user: expired or never there).
 */
export type LiveWorkerReply = LiveServerMessage | { type: "full" } | { type: "gone" };
