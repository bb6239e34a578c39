import { z } from "zod";
import { dropUnset, zId, zIdList, zPaging, zText } from "./common.ts";
import { BATCH_MAX, FILE_NAME_MAX, MENU_NAME_MAX } from "./limits.ts";
import {
  BATCH_DOWNLOAD_INCLUDE,
  BATCH_TRANSCRIPT_FORMATS,
  RECORD_SORT_FIELDS,
  SORT_ORDERS,
} from "./records-constants.ts";

/** Upload and library calls (docs/records-api.md "Upload" and "Library"). */

/**
 * Spec §3 Audio record. updateTime in epoch seconds (any change rewrites it: a move, a restore, a
 * transcription), timeLen in seconds; createTime (epoch s) is when it was uploaded, what lists sort by.
 */
export const ZAudioRecord = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  fileStatus: z.number().int(),
  timeLen: z.number().int(),
  updateTime: z.number().int(),
  createTime: z.number().int(),
  format: z.string(),
  fileSize: z.number().int(),
  sampleRate: z.number().int(),
  audioPath: z.string(),
  progress: z.number().int(),
  menuId: z.string().nullable(),
});
export type AudioRecord = z.infer<typeof ZAudioRecord>;
export const ZRecordPage = z.object({ total: z.number().int(), records: z.array(ZAudioRecord) });
export type RecordPage = z.infer<typeof ZRecordPage>;

/** Recycle-bin record: the record plus when it went to the bin (epoch s). */
export const ZRecycledRecord = ZAudioRecord.extend({ deleteTime: z.number().int() });
export type RecycledRecord = z.infer<typeof ZRecycledRecord>;
export const ZRecyclePage = z.object({ total: z.number().int(), records: z.array(ZRecycledRecord) });
export type RecyclePage = z.infer<typeof ZRecyclePage>;

/** Spec §3 Untranscribed audio. */
export const ZUntranscribedAudio = ZAudioRecord.pick({ fileStatus: true, fileName: true, timeLen: true, fileId: true });

/** Spec §3 Menu item: menuId is kept as a string. */
export const ZMenuItem = z.object({ menuId: z.string(), menuName: z.string() });
export type MenuItem = z.infer<typeof ZMenuItem>;

/** Several record ids: "1,2,3", [1, 2, 3] or ["1", "2"]; de-duplicated, 1–500 of them. */
export const zFileIds = zIdList(BATCH_MAX);

/** "12" or 12 → 12; 0, "0" or "" → null (no folder); anything else → undefined (invalid). */
function menuRef(value: unknown): number | null | undefined {
  if (value === "" || value === 0 || value === "0") return null;
  const digits =
    typeof value === "number" ? value : typeof value === "string" && /^\d{1,10}$/.test(value) ? value : "x";
  const parsed = zId.safeParse(digits);
  return parsed.success ? parsed.data : undefined;
}
const menuRefReason = "must be a folder id (digits), or 0 for no folder";

function zMenuRef() {
  return z.union([z.string().max(20), z.number()]).transform((value, ctx) => {
    const ref = menuRef(value);
    if (ref === undefined) {
      ctx.addIssue({ code: "custom", message: menuRefReason });
      return z.NEVER;
    }
    return ref;
  });
}

/** A folder to put records in: a numeric id (string or number); `0`, `""` or absent = no folder (→ null). */
export const zMenuTarget = zMenuRef()
  .optional()
  .transform((value) => value ?? null);

/**
 * GET all_list / list: paging, name search, folder (0 = no folder) and status filters; -1 drops a filter.
 * `sortBy` name | time (createTime) | duration and `order` asc | desc; both optional (newest first).
 */
export const ZRecordListQuery = z.object({
  ...zPaging,
  fileName: dropUnset(zText({ max: FILE_NAME_MAX })),
  menuId: dropUnset(zMenuRef()),
  fileStatus: dropUnset(z.coerce.number({ error: "must be a number" }).int().min(-10).max(10)),
  sortBy: z.enum(RECORD_SORT_FIELDS, { error: `must be one of ${RECORD_SORT_FIELDS.join(", ")}` }).optional(),
  order: z.enum(SORT_ORDERS, { error: `must be one of ${SORT_ORDERS.join(", ")}` }).optional(),
});
export type RecordListQuery = z.infer<typeof ZRecordListQuery>;

export const ZFileIdQuery = z.object({ fileId: zId });
export const ZFileIdsBody = z.object({ fileIds: zFileIds });
export const ZFileIdsResult = z.object({ fileIds: z.array(z.number().int()) });

/** Record and folder names: single-line text, HTML/SQL is plain text. */
const zName = (max: number) => zText({ min: 1, max });

export const ZMenuCreateBody = z.object({ menuName: zName(MENU_NAME_MAX) });
export const ZMenuUpdateBody = z.object({ menuId: zId, menuName: zName(MENU_NAME_MAX) });
export const ZMenuDeleteBody = z.object({ menuId: zId });
export const ZMenuDeleted = z.object({ menuId: z.string() });

export const ZMoveBody = z.object({ fileId: zId, menuId: zMenuTarget });
export const ZMoveBatchBody = z.object({ fileIds: zFileIds, menuId: zMenuTarget });
export const ZMoveResult = z.object({ fileIds: z.array(z.number().int()), menuId: z.string().nullable() });

export const ZDeleteRecordBody = z.object({ fileId: zId });
export const ZRenameBody = z.object({ fileId: zId, fileName: zName(FILE_NAME_MAX) });

/** Upload options, from the query string or multipart fields sent before the file. */
export const ZUploadQuery = z.object({
  menuId: zMenuTarget,
  uploadId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, "must be 8–64 characters of A–Z, a–z, 0–9, _ or -")
    .optional(),
  /** the recording's live-caption sessions, comma-separated (docs/live.md "Metering"): their charge is credited */
  liveSessionId: z.string().max(4000).optional(),
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
export type CheckAudio = z.infer<typeof ZCheckAudio>;

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
export type FileInfo = z.infer<typeof ZFileInfo>;

/** `inline` of a download: a flag, where an empty value means false. */
const zInlineFlag = z
  .union([z.boolean(), z.enum(["0", "1", "true", "false", ""]), z.literal(0), z.literal(1)])
  .optional()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");

export const ZDownloadQuery = z.object({ fileId: zId, inline: zInlineFlag });
/**
 * download/batch: the records, and what of each the zip holds — `include` audio (the originals, the default),
 * transcript or both; the transcripts as `format` txt (the default), docx or srt.
 */
export const ZBatchDownloadQuery = z.object({
  fileIds: zFileIds,
  include: z
    .enum(BATCH_DOWNLOAD_INCLUDE, { error: `must be one of ${BATCH_DOWNLOAD_INCLUDE.join(", ")}` })
    .default("audio"),
  format: z
    .enum(BATCH_TRANSCRIPT_FORMATS, { error: `must be one of ${BATCH_TRANSCRIPT_FORMATS.join(", ")}` })
    .default("txt"),
});
export type BatchDownloadQuery = z.infer<typeof ZBatchDownloadQuery>;
