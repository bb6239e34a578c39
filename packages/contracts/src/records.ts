import { z } from "zod";

/** Spec §5: the 15 accepted extensions, 1 GiB, 5 hours at upload, 3 hours per transcription. */
export const UPLOAD_EXTENSIONS = [
  "wav",
  "mp3",
  "m4a",
  "aac",
  "mp4",
  "3gp",
  "mkv",
  "flv",
  "mov",
  "wmv",
  "mxf",
  "avi",
  "amr",
  "wma",
  "m4s",
] as const;
export const MAX_UPLOAD_BYTES = 1_073_741_824;
export const MAX_UPLOAD_SECONDS = 5 * 3600;
export const MAX_TRANSCRIBE_SECONDS = 3 * 3600;

/** Spec §4 audio file / task statuses. */
export const FileStatus = { Waiting: 0, Transcribing: 1, Complete: 2, InQueue: 3, Failed: -1, NotFound: -10 } as const;

/** Spec §3 Audio record. updateTime in epoch seconds, timeLen in seconds. */
export const ZAudioRecord = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  fileStatus: z.number().int(),
  timeLen: z.number().int(),
  updateTime: z.number().int(),
  format: z.string(),
  fileSize: z.number().int(),
  sampleRate: z.number().int(),
  audioPath: z.string(),
  progress: z.number().int(),
  menuId: z.string().nullable(),
});
export const ZRecordPage = z.object({ total: z.number().int(), records: z.array(ZAudioRecord) });

/** Spec §3 Untranscribed audio. */
export const ZUntranscribedAudio = ZAudioRecord.pick({ fileStatus: true, fileName: true, timeLen: true, fileId: true });

/** One transcript segment; times in ms. */
export const ZSegment = z.object({
  spkName: z.string(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  text: z.string(),
  words: z.array(z.object({ text: z.string(), startTime: z.number().int(), endTime: z.number().int() })).optional(),
});
export type Segment = z.infer<typeof ZSegment>;

/** Spec §3 Transcript detail: asrResult is the JSON text of the segments. */
export const ZTranscriptDetail = z.object({
  fileName: z.string(),
  updateTime: z.number().int(),
  asrResult: z.string(),
});

/** Spec §3 Menu item: menuId is kept as a string. */
export const ZMenuItem = z.object({ menuId: z.string(), menuName: z.string() });

export const ZDictationParam = z.object({
  source: z.number().int().default(0),
  answerVersion: z.number().int().default(3),
  language: z.enum(["zh", "en", "auto"]).default("auto"),
  speakerCount: z.number().int().min(0).max(10).default(0),
  hotWords: z.array(z.string().max(50)).max(200).optional(),
});

/** Spec §3 Speaker state of the rename popover. */
export const SPEAKER_NAME_MAX = 10;
export const SPEAKER_NAME_PATTERN = /^[\p{Script=Han}A-Za-z0-9]+$/u;

// ───────────── Transcription and transcript (dictation + transcript modules; docs/records-api.md) ─────────────

/** Spec §9 / docs/records-api.md limits of the transcription and transcript calls. */
export const MAX_SPEAKERS = 10;
export const MAX_DICTATION_FILES = 100;
export const MAX_SEGMENTS = 20_000;
export const MAX_SEGMENT_TEXT = 5_000;
export const MAX_HOT_WORDS = 200;
export const MAX_HOT_WORD_LENGTH = 50;
export const MAX_ABSTRACTS_LENGTH = 20_000;

/** The worker's default speaker names ('说话人1', 'Speaker 1'); accepted as they are in update_text. */
export const DEFAULT_SPEAKER_NAME_PATTERN = /^(说话人\d{1,4}|Speaker \d{1,4})$/;

/** Spec §5: only Han characters, English letters and digits, at most 10 characters (code points). */
export function isValidSpeakerName(name: string): boolean {
  return SPEAKER_NAME_PATTERN.test(name) && [...name].length <= SPEAKER_NAME_MAX;
}

/** A record id (numeric strings accepted), like zId of common.ts. */
export const zTranscriptRecordId = z.coerce.number({ error: "must be a number" }).int().positive().max(2_147_483_647);

const zTranscriptInt = z.union([
  z.number().int(),
  z
    .string()
    .trim()
    .regex(/^-?\d{1,9}$/, "must be a number")
    .transform(Number),
]);

/** A flag sent as a JSON boolean, 0/1, or the strings "true"/"false"/"1"/"0". */
export const zTranscriptFlag = z.union([
  z.boolean(),
  z.literal(0).transform(() => false),
  z.literal(1).transform(() => true),
  z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1"),
]);

/** Record ids as "1,2,3", an array, or a single number; de-duplicated, in the order given, 1–`max` of them. */
function recordIdList(max: number) {
  return z
    .union([z.string().max(max * 12), z.number(), z.array(z.union([z.number(), z.string().max(20)])).max(max * 2)])
    .transform((value, ctx) => {
      const parts = Array.isArray(value)
        ? value.map((v) => String(v).trim())
        : String(value)
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "");
      const ids = new Set<number>();
      for (const part of parts) {
        const id = /^\d{1,10}$/.test(part) ? Number(part) : Number.NaN;
        if (!Number.isSafeInteger(id) || id <= 0 || id > 2_147_483_647) {
          ctx.addIssue({ code: "custom", message: "must be record ids separated by commas" });
          return z.NEVER;
        }
        ids.add(id);
      }
      if (ids.size === 0) {
        ctx.addIssue({ code: "custom", message: "is required" });
        return z.NEVER;
      }
      if (ids.size > max) {
        ctx.addIssue({ code: "custom", message: `at most ${max} files` });
        return z.NEVER;
      }
      return [...ids];
    });
}

/** The files of one dictation_batch call (at most 100). */
export const zDictationFileIds = recordIdList(MAX_DICTATION_FILES);
/** The files of one get_progress call (at most 1000: a whole page of records can be polled at once). */
export const MAX_PROGRESS_FILES = 1000;
export const zDictationProgressIds = recordIdList(MAX_PROGRESS_FILES);

/** A hot word: trimmed, 1–50 characters, no control characters. */
export const zHotWord = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(MAX_HOT_WORD_LENGTH, `at most ${MAX_HOT_WORD_LENGTH} characters`)
  .regex(/^[^\u0000-\u001f\u007f]+$/, "must not contain control characters");

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
        ctx.addIssue({ code: "custom", path: [i], message: parsed.error.issues[0]?.message ?? "invalid word" });
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
 * ZDictationParam defaults: source 0, answerVersion 3, language auto, speakerCount 0 (= detect).
 */
export const ZDictationParamInput = z.object({
  source: zTranscriptInt.optional().default(0),
  answerVersion: zTranscriptInt.optional().default(3),
  language: z.enum(["zh", "en", "auto"]).optional().default("auto"),
  speakerCount: zTranscriptInt
    .pipe(z.number().int().min(0).max(MAX_SPEAKERS, `at most ${MAX_SPEAKERS}`))
    .optional()
    .default(0),
  hotWords: zHotWordList.optional(),
});
export type DictationParam = z.infer<typeof ZDictationParamInput>;

/** dictationParam is a JSON string (the SPA's form) or an object; absent means every default. */
const zDictationParamField = z.union([z.string().max(100_000), z.record(z.string(), z.unknown())]).optional();

export const ZDictationBody = z.object({ fileId: zTranscriptRecordId, dictationParam: zDictationParamField });
export const ZDictationBatchBody = z.object({ fileIds: zDictationFileIds, dictationParam: zDictationParamField });

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
export const ZDictationResult = z.object({ tasks: z.array(ZDictationTask) });
export type DictationTask = z.infer<typeof ZDictationTask>;

export const ZDictationProgressQuery = z
  .object({ fileIds: zDictationProgressIds.optional(), fileId: zDictationProgressIds.optional() })
  .refine((q) => q.fileIds !== undefined || q.fileId !== undefined, { message: "is required", path: ["fileIds"] });
export const ZDictationProgressItem = z.object({
  fileId: z.number().int(),
  fileStatus: z.number().int(),
  progress: z.number().int(),
  taskId: z.number().int().nullable(),
  errorCode: z.number().int().optional(),
  errorMsg: z.string().optional(),
});

export const ZDictationLanguage = z.object({
  value: z.enum(["zh", "en", "auto"]),
  label: z.string(),
  available: z.boolean(),
  engine: z.string(),
  missing: z.string().optional(),
});
export const ZDictationConfiguration = z.object({
  languages: z.array(ZDictationLanguage),
  maxSpeakers: z.number().int(),
  maxSeconds: z.number().int(),
});

export const ZTranscriptFileQuery = z.object({ fileId: zTranscriptRecordId });

/** get_text: spec §3 Transcript detail plus what the detail page shows. */
export const ZTextDetail = ZTranscriptDetail.extend({
  fileId: z.number().int(),
  timeLen: z.number().int(),
  language: z.string(),
  abstracts: z.string(),
});

const zTranscriptMs = z
  .number()
  .min(0)
  .max(1_000_000_000)
  .transform((v) => Math.round(v));

/** A segment as update_text accepts it (unknown keys dropped; endTime defaults to startTime). */
export const ZEditableSegment = z.object({
  spkName: z
    .string()
    .trim()
    .refine((n) => isValidSpeakerName(n) || DEFAULT_SPEAKER_NAME_PATTERN.test(n), {
      message: `only Chinese characters, English letters and digits, at most ${SPEAKER_NAME_MAX}`,
    }),
  startTime: zTranscriptMs,
  endTime: zTranscriptMs.optional(),
  text: z.string().max(MAX_SEGMENT_TEXT, `at most ${MAX_SEGMENT_TEXT} characters`),
  words: z
    .array(z.object({ text: z.string().max(200), startTime: zTranscriptMs, endTime: zTranscriptMs }))
    .max(MAX_SEGMENT_TEXT)
    .optional(),
});

/** asrResult: the JSON text of the segments, or the array itself. */
export const zAsrResultInput = z
  .union([z.string().max(32 * 1024 * 1024), z.array(z.unknown())])
  .transform((value, ctx) => {
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      ctx.addIssue({ code: "custom", message: "invalid JSON" });
      return z.NEVER;
    }
  })
  .pipe(z.array(ZEditableSegment).max(MAX_SEGMENTS, `at most ${MAX_SEGMENTS} segments`));

export const ZUpdateTextBody = z.object({ fileId: zTranscriptRecordId, asrResult: zAsrResultInput });
export const ZUpdateTextResult = z.object({
  fileId: z.number().int(),
  updateTime: z.number().int(),
  segments: z.number().int(),
});

export const ZUpdateParaBody = z.object({
  fileId: zTranscriptRecordId,
  index: zTranscriptInt.pipe(
    z
      .number()
      .int()
      .min(0)
      .max(MAX_SEGMENTS - 1),
  ),
  text: z.string().max(MAX_SEGMENT_TEXT, `at most ${MAX_SEGMENT_TEXT} characters`).optional(),
  spkName: z.string().max(1000).optional(),
  renameAll: zTranscriptFlag.optional(),
});
/** Spec §3 Speaker state: the name before and after, the batch flag, and the speakers now present. */
export const ZUpdateParaResult = z.object({
  fileId: z.number().int(),
  index: z.number().int(),
  segment: ZSegment,
  oldName: z.string(),
  newName: z.string(),
  renameAll: z.boolean(),
  renamed: z.number().int(),
  speakers: z.array(z.string()),
  updateTime: z.number().int(),
});

export const ZHotWords = z.object({ hotWords: z.array(z.string()) });
export const ZHotWordsPutBody = z.object({ hotWords: zHotWordList });

export const ZTranscriptAbstractsBody = z.object({
  fileId: zTranscriptRecordId,
  abstracts: z.string().max(MAX_ABSTRACTS_LENGTH, `at most ${MAX_ABSTRACTS_LENGTH} characters`).optional(),
});
export const ZTranscriptAbstracts = z.object({ abstracts: z.string() });

export const ZTranscriptExportQuery = z.object({
  fileId: zTranscriptRecordId,
  withSpeaker: zTranscriptFlag.optional().default(true),
  withTime: zTranscriptFlag.optional().default(true),
});
export const ZTranscriptShareUrl = z.object({ url: z.string() });

// ───────────────────────── upload and library (docs/records-api.md) ─────────────────────────

/** Longest record name (characters), the extension included. */
export const FILE_NAME_MAX = 100;
/** Folder ('menu') names: 1–20 characters. */
export const MENU_NAME_MAX = 20;
/** How many ids one batch call (move, delete, restore, download) takes. */
export const BATCH_MAX = 500;

const idError = "must be a positive integer id";
const zPositiveId = z.coerce.number({ error: idError }).int(idError).positive(idError).max(2_147_483_647, idError);

/** A record id: a number or a numeric string. */
export const zFileId = zPositiveId;

/** Several ids: "1,2,3", [1, 2, 3] or ["1", "2"]; de-duplicated, 1–BATCH_MAX of them. */
export const zFileIds = z
  .union([z.string().max(20_000), z.number(), z.array(z.union([z.string().max(20), z.number()])).max(BATCH_MAX)], {
    error: "must be comma-separated positive integer ids",
  })
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : String(value).split(","))
      .map((p) => String(p).trim())
      .filter((p) => p !== "");
    const ids: number[] = [];
    for (const part of parts) {
      const parsed = zPositiveId.safeParse(/^\d+$/.test(part) ? part : Number.NaN);
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: "must be comma-separated positive integer ids" });
        return z.NEVER;
      }
      if (!ids.includes(parsed.data)) ids.push(parsed.data);
    }
    if (ids.length === 0) {
      ctx.addIssue({ code: "custom", message: "must name at least one id" });
      return z.NEVER;
    }
    if (ids.length > BATCH_MAX) {
      ctx.addIssue({ code: "custom", message: `at most ${BATCH_MAX} ids` });
      return z.NEVER;
    }
    return ids;
  });

/** "12" or 12 → 12; 0, "0" or "" → null (no folder); anything else → undefined (invalid). */
function menuRef(value: unknown): number | null | undefined {
  if (value === "" || value === 0 || value === "0") return null;
  const digits =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value) ? value : "x";
  const parsed = zPositiveId.safeParse(digits);
  return parsed.success ? parsed.data : undefined;
}
const menuRefMessage = "must be a folder id (digits), or 0 for no folder";

/** A folder to put records in: a numeric id (string or number); `0`, `""` or absent = no folder (→ null). */
export const zMenuTarget = z
  .union([z.string().max(20), z.number()])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined) return null;
    const ref = menuRef(value);
    if (ref === undefined) {
      ctx.addIssue({ code: "custom", message: menuRefMessage });
      return z.NEVER;
    }
    return ref;
  });

/** A list filter: `-1` (spec §5), `""` or absent drop it (→ undefined). */
function dropUnset<T extends z.ZodType>(inner: T) {
  return z.preprocess(
    (value) => (value === undefined || value === "" || value === -1 || value === "-1" ? undefined : value),
    inner.optional(),
  );
}

/** Folder filter of the lists: a folder id, or `0` = records in no folder (→ null); `-1`/absent = no filter. */
const zMenuFilter = dropUnset(
  z.union([z.string().max(20), z.number()]).transform((value, ctx) => {
    const ref = menuRef(value);
    if (ref === undefined) {
      ctx.addIssue({ code: "custom", message: menuRefMessage });
      return z.NEVER;
    }
    return ref;
  }),
);

const zNumber = () =>
  z.coerce.number({ error: (issue) => (issue.code === "invalid_type" ? "must be a number" : undefined) }).int();

const zPageQuery = {
  page: zNumber().min(1).max(100_000).default(1),
  pageSize: zNumber().min(1).max(9999).default(20),
  source: z.coerce.number().int().optional(),
};

/** GET all_list / list: paging, name search, folder and status filters. */
export const ZRecordListQuery = z.object({
  ...zPageQuery,
  fileName: dropUnset(z.string().trim().max(FILE_NAME_MAX)),
  menuId: zMenuFilter,
  fileStatus: dropUnset(zNumber().min(-10).max(10)),
});
export type RecordListQuery = z.infer<typeof ZRecordListQuery>;

export const ZPageQuery = z.object(zPageQuery);

/** Recycle-bin record: the record plus when it went to the bin (epoch s). */
export const ZRecycledRecord = ZAudioRecord.extend({ deleteTime: z.number().int() });
export const ZRecyclePage = z.object({ total: z.number().int(), records: z.array(ZRecycledRecord) });

export const ZFileIdQuery = z.object({ fileId: zFileId });
export const ZFileIdsBody = z.object({ fileIds: zFileIds });
export const ZFileIdsResult = z.object({ fileIds: z.array(z.number().int()) });

/** Record and folder names: control characters are refused; HTML/SQL is plain text. */
const zName = (max: number) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `at most ${max} characters`)
    .refine((s) => !/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/.test(s), "must not contain control characters");

export const ZMenuCreateBody = z.object({ menuName: zName(MENU_NAME_MAX) });
export const ZMenuUpdateBody = z.object({ menuId: zPositiveId, menuName: zName(MENU_NAME_MAX) });
export const ZMenuDeleteBody = z.object({ menuId: zPositiveId });
export const ZMenuDeleted = z.object({ menuId: z.string() });

export const ZMoveBody = z.object({ fileId: zFileId, menuId: zMenuTarget });
export const ZMoveBatchBody = z.object({ fileIds: zFileIds, menuId: zMenuTarget });
export const ZMoveResult = z.object({ fileIds: z.array(z.number().int()), menuId: z.string().nullable() });

export const ZDeleteRecordBody = z.object({ fileId: zFileId });
export const ZRenameBody = z.object({ fileId: zFileId, fileName: zName(FILE_NAME_MAX) });

/** Upload options, from the query string or multipart fields sent before the file. */
export const ZUploadQuery = z.object({
  menuId: zMenuTarget,
  uploadId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 characters of A–Z, a–z, 0–9, _ or -")
    .optional(),
});
export const ZUploadResult = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  timeLen: z.number().int(),
  fileStatus: z.number().int(),
  fileSize: z.number().int(),
  format: z.string(),
});
export type UploadResult = z.infer<typeof ZUploadResult>;

/** GET check_audio: whether a transcription of the record would pass the limits, and if not which code it hits. */
export const ZCheckAudio = z.object({
  fileId: z.number().int(),
  exists: z.boolean(),
  fileStatus: z.number().int(),
  timeLen: z.number().int(),
  canTranscribe: z.boolean(),
  reason: z.number().int().optional(),
});

/** GET s/file/info: the media facts probed at upload. */
export const ZFileInfo = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  format: z.string(),
  fileSize: z.number().int(),
  timeLen: z.number().int(),
  sampleRate: z.number().int(),
  channels: z.number().int(),
  codec: z.string(),
  createTime: z.number().int(),
});

const zFlag = z
  .union([z.boolean(), z.enum(["0", "1", "true", "false", ""]), z.literal(0), z.literal(1)])
  .optional()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

export const ZDownloadQuery = z.object({ fileId: zFileId, inline: zFlag });
export const ZBatchDownloadQuery = z.object({ fileIds: zFileIds });
