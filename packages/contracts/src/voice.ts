import { z } from "zod";
import { zId, zIdList, zText } from "./common.ts";
import { zInline, zNumberIn } from "./tts.ts";
import { TTS_LANGUAGES } from "./tts-constants.ts";
import {
  CONVERT_SEMITONES,
  LYRICS_MAX,
  MY_VOICE_METHODS,
  SING_KEY,
  SING_TEMPO,
  VOICE_BATCH_MAX,
  VOICE_NAME_MAX,
  VOICE_WORK_KINDS,
  VOICE_WORK_TITLE_MAX,
} from "./voice-constants.ts";

/**
 * My voice, AI singing and song voice conversion (docs/voice.md). Uploads are multipart: the fields
 * below come in the query string or as multipart fields sent before the file.
 */

/** A client-chosen key that makes a create call idempotent (a double click answers the first one). */
export const zRequestId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 characters of A–Z, a–z, 0–9, _ or -")
  .optional();

/** Which voice speaks or sings: a library voice (promptId) or one of the caller's (myVoiceId); neither: the default. */
export const zVoiceChoice = {
  promptId: zId.optional(),
  myVoiceId: zId.optional(),
};

// ───────────────────────────── my voice ─────────────────────────────

export const ZVoiceProfile = z.object({
  /** median pitch (Hz) and its 10th–90th percentile range */
  medianHz: z.number(),
  lowHz: z.number(),
  highHz: z.number(),
  /** a spectral-envelope (formant) measure (Hz) */
  formantHz: z.number(),
  syllablesPerSecond: z.number(),
  speechSeconds: z.number(),
});
export type VoiceProfileView = z.infer<typeof ZVoiceProfile>;

export const ZMyVoiceCreate = z.object({
  name: zText({ min: 1, max: VOICE_NAME_MAX }),
  language: z.enum(TTS_LANGUAGES).optional().default("zh"),
  requestId: zRequestId,
});
export const ZMyVoiceRetrain = z.object({ voiceId: zId, requestId: zRequestId });
export const ZMyVoiceQuery = z.object({ voiceId: zId });
export const ZMyVoiceRename = z.object({ voiceId: zId, name: zText({ min: 1, max: VOICE_NAME_MAX }) });
export const ZMyVoiceFileQuery = z.object({ voiceId: zId, inline: zInline });

/** One of the caller's voices. status: spec §4 task statuses (3 queued, 1 analysing, 2 ready, -1 failed). */
export const ZMyVoice = z.object({
  voiceId: z.number().int(),
  name: z.string(),
  language: z.enum(TTS_LANGUAGES),
  method: z.enum(MY_VOICE_METHODS),
  status: z.number().int(),
  progress: z.number().int(),
  sampleSeconds: z.number(),
  /** the library voice it is matched from (method "match") */
  baseVoiceName: z.string(),
  profile: ZVoiceProfile.nullable(),
  /** "" until ready */
  previewUrl: z.string(),
  sampleUrl: z.string(),
  createTime: z.number().int(),
  updateTime: z.number().int(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export type MyVoice = z.infer<typeof ZMyVoice>;
export const ZMyVoiceList = z.object({ total: z.number().int(), list: z.array(ZMyVoice) });

// ───────────────────────────── works ─────────────────────────────

export const ZSingCreate = z.object({
  /** a built-in tune (contracts/tunes.ts) or, with a `midi` file part, the uploaded melody */
  tuneId: z.string().max(40).optional(),
  lyrics: zText({ min: 1, max: LYRICS_MAX, multiline: true }),
  language: z.enum(TTS_LANGUAGES).optional().default("zh"),
  keyShift: zNumberIn(SING_KEY),
  tempo: zNumberIn(SING_TEMPO),
  title: zText({ min: 1, max: VOICE_WORK_TITLE_MAX }).optional(),
  requestId: zRequestId,
  ...zVoiceChoice,
});
export const ZConvertCreate = z.object({
  semitones: zNumberIn(CONVERT_SEMITONES),
  title: zText({ min: 1, max: VOICE_WORK_TITLE_MAX }).optional(),
  requestId: zRequestId,
  ...zVoiceChoice,
});

export const ZNote = z.object({ midi: z.number(), start: z.number(), duration: z.number() });
export const ZVoiceWork = z.object({
  workId: z.number().int(),
  kind: z.enum(VOICE_WORK_KINDS),
  title: z.string(),
  voiceName: z.string(),
  status: z.number().int(),
  progress: z.number().int(),
  durationMs: z.number().int(),
  /** sing: the melody as sung (beats, after the key shift) with its syllables; convert: [] */
  notes: z.array(ZNote.extend({ syllable: z.string() })),
  bpm: z.number(),
  /** sing: lyrics; convert: "" */
  lyrics: z.string(),
  keyShift: z.number(),
  tempo: z.number(),
  semitones: z.number(),
  /** "" until done (original: the uploaded song, for the before/after player) */
  audioUrl: z.string(),
  downloadUrl: z.string(),
  originalUrl: z.string(),
  createTime: z.number().int(),
  updateTime: z.number().int(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export type VoiceWork = z.infer<typeof ZVoiceWork>;
export const ZVoiceWorkList = z.object({ total: z.number().int(), list: z.array(ZVoiceWork) });
export const ZVoiceWorkListQuery = z.object({
  kind: z.enum(VOICE_WORK_KINDS).optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  pageSize: z.coerce.number().int().min(1).max(100).optional().default(20),
});
export const ZVoiceWorkIds = z.object({ workIds: zIdList(VOICE_BATCH_MAX) });
export const ZVoiceWorkRename = z.object({ workId: zId, title: zText({ min: 1, max: VOICE_WORK_TITLE_MAX }) });
export const ZVoiceWorkFileQuery = z.object({
  workId: zId,
  part: z.enum(["result", "original", "vocals"]).optional().default("result"),
  inline: zInline,
});
export const ZVoiceProgressItem = z.object({
  id: z.number().int(),
  status: z.number().int(),
  progress: z.number().int(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export const ZMyVoiceIds = z.object({ voiceIds: zIdList(VOICE_BATCH_MAX) });

export const ZVoiceQuota = z.object({ used: z.number().int(), limit: z.number().int(), member: z.boolean() });

/** What this install can do now: the words the pages use ("voice matching" unless a clone engine is configured). */
export const ZVoiceCapabilities = z.object({
  myVoiceMethod: z.enum(MY_VOICE_METHODS),
  /** "centre" (offline centre-channel extraction) | "remote" (a configured separator) */
  separator: z.enum(["centre", "remote"]),
  /** "dsp" (offline key and formant shift) | "remote" (a configured RVC-style server) */
  converter: z.enum(["dsp", "remote"]),
  /** "soundfont" (a General MIDI sound font: VOICE_SOUNDFONT, Debian's, or the one shipped on npm) | "synth" (built-in) */
  accompaniment: z.enum(["soundfont", "synth"]),
  /** a worker is running that can make voice works now */
  available: z.boolean(),
});

export const ZTuneView = z.object({
  id: z.string(),
  name: z.string(),
  bpm: z.number(),
  melody: z.array(ZNote),
  lyrics: z.string(),
});
export const ZTuneList = z.object({ list: z.array(ZTuneView) });
export type VoiceQuota = z.infer<typeof ZVoiceQuota>;
