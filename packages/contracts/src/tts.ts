import { z } from "zod";
import { dropUnset, zId, zIdList, zPaging, zSource, zText } from "./common.ts";
import { unsafeTextReason } from "./text.ts";
import {
  TTS_BATCH_MAX,
  TTS_ENGINES,
  TTS_FORMATS,
  TTS_LANGUAGES,
  TTS_MAX_CHARS,
  TTS_PITCH,
  TTS_SPEED,
  TTS_TITLE_MAX,
  TTS_VOLUME,
  ttsCharCount,
  VOICE_AGE_GROUPS,
  VOICE_GENDERS,
  VOICE_STYLES,
} from "./tts-constants.ts";

/**
 * Text to speech and the voice library (spec §3 voice library item, §5 "-1 drops a filter", §7
 * `new_tts/labs/*` and `tts/start_tts`). Every call's request and answer; docs/tts.md walks through
 * them. Requests coerce (query strings, form fields); answers are strict.
 */

// ───────────────────────────── the voice library ─────────────────────────────

/** get_sound_list: a page of voices; every filter is dropped when -1, "" or absent (spec §5). */
export const ZSoundListQuery = z.object({
  ...zPaging,
  language: dropUnset(z.enum(TTS_LANGUAGES)),
  gender: dropUnset(z.enum(VOICE_GENDERS)),
  ageGroup: dropUnset(z.enum(VOICE_AGE_GROUPS)),
  style: dropUnset(z.enum(VOICE_STYLES)),
  engine: dropUnset(z.enum(TTS_ENGINES)),
  /** part of the name (either language), case-insensitive */
  keyword: dropUnset(zText({ max: 50 })),
});
export type SoundListQuery = z.infer<typeof ZSoundListQuery>;

/** The labels of a voice's filter values, in the request's language. */
export const ZVoiceLabels = z.object({
  language: z.string(),
  gender: z.string(),
  ageGroup: z.string(),
  style: z.string(),
  engine: z.string(),
});

/** Spec §3 voice library item (promptId, playing, audioUrl) and what the library page shows. */
export const ZVoiceItem = z.object({
  promptId: z.number().int(),
  /** the name in the request's language */
  name: z.string(),
  nameZh: z.string(),
  nameEn: z.string(),
  language: z.enum(TTS_LANGUAGES),
  gender: z.enum(VOICE_GENDERS),
  ageGroup: z.enum(VOICE_AGE_GROUPS),
  style: z.enum(VOICE_STYLES),
  engine: z.enum(TTS_ENGINES),
  labels: ZVoiceLabels,
  /** what try_listen reads aloud */
  sampleText: z.string(),
  /** the sample's address once generated (try_listen makes it), else "" */
  audioUrl: z.string(),
  /** always false from the server: the page sets it on the item it plays and clears it on the others (spec §4) */
  playing: z.boolean(),
  /** whether a running worker can speak with this voice now */
  available: z.boolean(),
  /** why not, in the request's language (only when not available); never a path */
  missing: z.string().optional(),
  /** the voice start_tts uses for its language when no promptId is given (TTS_ENGINE_ZH / TTS_ENGINE_EN) */
  isDefault: z.boolean(),
});
export type VoiceItem = z.infer<typeof ZVoiceItem>;

export const ZSoundList = z.object({ total: z.number().int(), list: z.array(ZVoiceItem) });
export type SoundList = z.infer<typeof ZSoundList>;

/** One filter value and its label in the request's language. */
export const ZVoiceOption = z.object({ value: z.string(), label: z.string() });
export type VoiceOption = z.infer<typeof ZVoiceOption>;

const zRange = z.object({ min: z.number(), max: z.number(), default: z.number() });

/**
 * select_options: the filter values that the listed voices have (each with its label; the page adds
 * its own "all" = -1), the default voice per language, and start_tts's limits for the editor.
 */
export const ZSelectOptions = z.object({
  languages: z.array(ZVoiceOption),
  genders: z.array(ZVoiceOption),
  ageGroups: z.array(ZVoiceOption),
  styles: z.array(ZVoiceOption),
  engines: z.array(ZVoiceOption),
  defaults: z.object({ zh: z.number().int().nullable(), en: z.number().int().nullable() }),
  limits: z.object({
    maxChars: z.number().int(),
    speed: zRange,
    pitch: zRange,
    volume: zRange,
    formats: z.array(z.enum(TTS_FORMATS)),
  }),
});
export type SelectOptions = z.infer<typeof ZSelectOptions>;

export const ZTryListenQuery = z.object({ promptId: zId, source: zSource });
/** try_listen: the voice's sample (generated on first use, then served from the file store). */
export const ZTryListen = z.object({
  promptId: z.number().int(),
  audioUrl: z.string(),
  sampleText: z.string(),
});
export type TryListen = z.infer<typeof ZTryListen>;

/** The sample's audio (GET new_tts/labs/sample): `v` is the version in audioUrl; the current one is served either way. */
export const ZSampleQuery = z.object({ promptId: zId, v: z.string().max(64).optional() });

// ───────────────────────────── synthesis ─────────────────────────────

/** A number sent as JSON or as a string ("1.25"), within `range`. */
export function zNumberIn(range: { min: number; max: number; default: number }) {
  return z
    .union([
      z.number({ error: "must be a number" }),
      z
        .string()
        .trim()
        .regex(/^-?\d{1,3}(\.\d{1,4})?$/, "must be a number")
        .transform(Number),
    ])
    .pipe(z.number().min(range.min, `at least ${range.min}`).max(range.max, `at most ${range.max}`))
    .optional()
    .default(range.default);
}

/** The text to speak: trimmed, 1–5000 characters (code points), several lines allowed, no NUL. */
export const zTtsText = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "invalid value") })
  .max(TTS_MAX_CHARS * 2 + 1000, `at most ${TTS_MAX_CHARS} characters`)
  .trim()
  .superRefine((text, ctx) => {
    if (text === "") {
      ctx.addIssue({ code: "custom", message: "must not be empty" });
      return;
    }
    if (ttsCharCount(text) > TTS_MAX_CHARS) {
      ctx.addIssue({ code: "custom", message: `at most ${TTS_MAX_CHARS} characters` });
      return;
    }
    const reason = unsafeTextReason(text, { multiline: true });
    if (reason) ctx.addIssue({ code: "custom", message: reason });
  });

/**
 * start_tts. `promptId` is the library voice (absent: the default voice of the text's language);
 * speed ×0.5–2, pitch −12..+12 semitones, volume ×0.1–2, format mp3 (default) or wav; `title` names
 * the work (default: the start of the text).
 */
export const ZStartTtsBody = z.object({
  text: zTtsText,
  promptId: zId.optional(),
  /** one of the caller's ready voices (docs/voice.md): its base voice speaks, moved toward it */
  myVoiceId: zId.optional(),
  speed: zNumberIn(TTS_SPEED),
  pitch: zNumberIn(TTS_PITCH),
  volume: zNumberIn(TTS_VOLUME),
  format: z.enum(TTS_FORMATS).optional().default("mp3"),
  title: zText({ min: 1, max: TTS_TITLE_MAX }).optional(),
  source: zSource,
});
export type StartTtsBody = z.infer<typeof ZStartTtsBody>;

/**
 * A work of 'my works' (spec §4 task statuses: 3 in queue, 1 running, 2 complete, -1 failed).
 * audioUrl (inline, seekable) and downloadUrl (an attachment) are "" until status 2.
 */
export const ZTtsWork = z.object({
  taskId: z.number().int(),
  title: z.string(),
  /** the first 100 characters of the text */
  textPreview: z.string(),
  chars: z.number().int(),
  language: z.enum(TTS_LANGUAGES),
  promptId: z.number().int().nullable(),
  /** the voice's name in the request's language */
  voiceName: z.string(),
  engine: z.string(),
  speed: z.number(),
  pitch: z.number(),
  volume: z.number(),
  format: z.enum(TTS_FORMATS),
  status: z.number().int(),
  progress: z.number().int(),
  durationMs: z.number().int(),
  fileSize: z.number().int(),
  audioUrl: z.string(),
  downloadUrl: z.string(),
  /** epoch seconds */
  createTime: z.number().int(),
  updateTime: z.number().int(),
  /** only when failed: the code (70001 engine missing, 40002 synthesis failed) and why, in the request's language */
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export type TtsWork = z.infer<typeof ZTtsWork>;

/** One work with its whole text (start_tts, get_task, rename answer it). */
export const ZTtsTask = ZTtsWork.extend({ text: z.string() });
export type TtsTask = z.infer<typeof ZTtsTask>;

export const ZTtsTaskQuery = z.object({ taskId: zId });

export const ZTtsProgressQuery = z.object({ taskIds: zIdList(TTS_BATCH_MAX) });
/** get_progress: one row per id asked, in that order; an unknown or foreign id answers status -10. */
export const ZTtsProgressItem = z.object({
  taskId: z.number().int(),
  status: z.number().int(),
  progress: z.number().int(),
  durationMs: z.number().int(),
  audioUrl: z.string(),
  downloadUrl: z.string(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export type TtsProgressItem = z.infer<typeof ZTtsProgressItem>;

export const ZTtsListQuery = z.object({
  ...zPaging,
  status: dropUnset(z.coerce.number({ error: "must be a number" }).int().min(-10).max(10)),
});
export const ZTtsList = z.object({ total: z.number().int(), list: z.array(ZTtsWork) });
export type TtsList = z.infer<typeof ZTtsList>;

export const ZTtsRenameBody = z.object({ taskId: zId, title: zText({ min: 1, max: TTS_TITLE_MAX }) });
export const ZTtsDeleteBody = z.object({ taskIds: zIdList(TTS_BATCH_MAX) });
export const ZTtsDeleted = z.object({ taskIds: z.array(z.number().int()) });

/** `inline` of a download: 1 plays in the page (`<audio>`), absent or 0 saves it (attachment). */
export const zInline = z
  .union([z.boolean(), z.enum(["0", "1", "true", "false", ""]), z.literal(0), z.literal(1)])
  .optional()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");
export const ZTtsDownloadQuery = z.object({ taskId: zId, inline: zInline });

/** The daily character quota (TTS_DAILY_CHARS, members TTS_DAILY_CHARS_MEMBER). */
export const ZTtsQuota = z.object({
  charsUsedToday: z.number().int(),
  charsLimitToday: z.number().int(),
  maxChars: z.number().int(),
  member: z.boolean(),
});
export type TtsQuota = z.infer<typeof ZTtsQuota>;
