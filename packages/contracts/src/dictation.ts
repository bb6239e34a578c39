import { z } from "zod";
import { zId, zIdList, zInt, zText } from "./common.ts";
import { ENGINE_STATES } from "./engines.ts";
import { MAX_DICTATION_FILES, MAX_HOT_WORD_LENGTH, MAX_HOT_WORDS, MAX_PROGRESS_FILES, MAX_SPEAKERS } from "./limits.ts";

/** Transcription requests, progress and the engines (docs/records-api.md "Transcription"). */

export const TRANSCRIPTION_LANGUAGES = ["zh", "en", "auto"] as const;
export type TranscriptionLanguage = (typeof TRANSCRIPTION_LANGUAGES)[number];

/** A hot word: trimmed, 1–50 characters, single-line text. */
export const zHotWord = zText({ min: 1, max: MAX_HOT_WORD_LENGTH });

/**
 * A hot-word list: a JSON array, or one string (a JSON array text, or words separated by commas or
 * new lines). At most 200 words after trimming and de-duplication (order kept).
 */
export const zHotWordList = z
  .union([z.array(z.string().max(1000)).max(MAX_HOT_WORDS * 5), z.string().max(100_000)])
  .transform((value, ctx) => {
    let words: unknown = value;
    if (typeof value === "string") {
      const text = value.trim();
      if (text.startsWith("[")) {
        try {
          words = JSON.parse(text);
        } catch {
          ctx.addIssue({ code: "custom", message: "invalid JSON" });
          return z.NEVER;
        }
      } else {
        words = text === "" ? [] : text.split(/[,，\n]/);
      }
    }
    if (!Array.isArray(words)) {
      ctx.addIssue({ code: "custom", message: "must be a list of words" });
      return z.NEVER;
    }
    const out: string[] = [];
    for (const [i, word] of words.entries()) {
      const parsed = zHotWord.safeParse(word);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", path: [i], message: parsed.error.issues[0]?.message ?? "invalid value" });
        return z.NEVER;
      }
      if (!out.includes(parsed.data)) out.push(parsed.data);
    }
    if (out.length > MAX_HOT_WORDS) {
      ctx.addIssue({ code: "custom", message: `at most ${MAX_HOT_WORDS} words` });
      return z.NEVER;
    }
    return out;
  });

/**
 * dictationParam as clients send it (numbers may arrive as strings). Missing fields take the
 * defaults: source 0, answerVersion 3, language auto, speakerCount 0 (= detect).
 */
export const ZDictationParamInput = z.object({
  source: zInt.optional().default(0),
  answerVersion: zInt.optional().default(3),
  language: z.enum(TRANSCRIPTION_LANGUAGES).optional().default("auto"),
  speakerCount: zInt
    .pipe(z.number().int().min(0).max(MAX_SPEAKERS, `at most ${MAX_SPEAKERS}`))
    .optional()
    .default(0),
  hotWords: zHotWordList.optional(),
});
export type DictationParam = z.infer<typeof ZDictationParamInput>;

/** dictationParam is a JSON string (the SPA's form) or an object; absent means every default. */
const zDictationParamField = z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]).optional();

export const ZDictationBody = z.object({ fileId: zId, dictationParam: zDictationParamField });
export const ZDictationBatchBody = z.object({
  fileIds: zIdList(MAX_DICTATION_FILES, "files"),
  dictationParam: zDictationParamField,
});

/**
 * One file's outcome. code 1: queued (or already queued/transcribing: its current task);
 * otherwise the refusal (30001 not found, 50001 too long, 50002 daily cap, 20001 card time).
 */
export const ZDictationTask = z.object({
  fileId: z.number().int(),
  taskId: z.number().int().nullable(),
  fileStatus: z.number().int(),
  code: z.number().int(),
  message: z.string().optional(),
});
export type DictationTask = z.infer<typeof ZDictationTask>;
export const ZDictationResult = z.object({ tasks: z.array(ZDictationTask) });
export type DictationResult = z.infer<typeof ZDictationResult>;

const zProgressIds = zIdList(MAX_PROGRESS_FILES, "files");
export const ZDictationProgressQuery = z
  .object({ fileIds: zProgressIds.optional(), fileId: zProgressIds.optional() })
  .refine((q) => q.fileIds !== undefined || q.fileId !== undefined, { message: "is required", path: ["fileIds"] });
export const ZDictationProgressItem = z.object({
  fileId: z.number().int(),
  fileStatus: z.number().int(),
  progress: z.number().int(),
  taskId: z.number().int().nullable(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});
export type DictationProgressItem = z.infer<typeof ZDictationProgressItem>;

/**
 * The transcript while it is being made (issue 43): what the worker has recognised so far, read from the
 * task's checkpoint (`GET /api/v1/dictation/partial?fileId=`, docs/records-api.md). Read-only and without
 * speakers (they are found once the whole recording is heard); times in ms of the recording.
 */
export const ZDictationPartialQuery = z.object({ fileId: zId });
export const ZPartialSegment = z.object({
  startTime: z.number().int(),
  endTime: z.number().int(),
  text: z.string(),
});
export type PartialSegment = z.infer<typeof ZPartialSegment>;
export const ZDictationPartial = z.object({
  fileId: z.number().int(),
  fileStatus: z.number().int(),
  progress: z.number().int(),
  /** recognised so far, in order; empty before the first checkpoint and once the task is over */
  segments: z.array(ZPartialSegment),
  /** the recording up to here (ms) is recognised: 0 before the first checkpoint */
  upToMs: z.number().int(),
});
export type DictationPartial = z.infer<typeof ZDictationPartial>;

/** One language of dictation/configuration: whether a running worker can transcribe it, and if not why. */
export const ZDictationLanguage = z.object({
  value: z.enum(TRANSCRIPTION_LANGUAGES),
  label: z.string(),
  available: z.boolean(),
  state: z.enum(ENGINE_STATES),
  /** download progress in percent, only while `state` is downloading */
  progress: z.number().int().min(0).max(100).optional(),
  engine: z.string(),
  /** what the user can expect or the operator should do, in the request's language (only when not available); never a path */
  missing: z.string().optional(),
});
export type DictationLanguage = z.infer<typeof ZDictationLanguage>;
export const ZDictationConfiguration = z.object({
  languages: z.array(ZDictationLanguage),
  maxSpeakers: z.number().int(),
  maxSeconds: z.number().int(),
  /**
   * Whether some running worker offers live captions (docs/live.md) in each language, so the recorder can
   * say before recording that Chinese captions are not available instead of quietly captioning in English.
   */
  live: z.object({ zh: z.boolean(), en: z.boolean() }).optional(),
});
export type DictationConfiguration = z.infer<typeof ZDictationConfiguration>;
