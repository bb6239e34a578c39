/**
 * The records library's choices without zod (docs/records-api.md "Library"), for the web bundle
 * (`@yuelu/contracts/constants`); the query schemas are in records.ts.
 */

/** What a record list may be sorted by: its name, when it was made (createTime), its length. */
export const RECORD_SORT_FIELDS = ["name", "time", "duration"] as const;
export type RecordSortField = (typeof RECORD_SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The order a sort takes when none is asked for: names A→Z, the newest and the longest first. */
export const DEFAULT_SORT_ORDER: Record<RecordSortField, SortOrder> = { name: "asc", time: "desc", duration: "desc" };

/** What a batch download's zip holds: the originals, the transcripts, or both. */
export const BATCH_DOWNLOAD_INCLUDE = ["audio", "transcript", "both"] as const;
export type BatchDownloadInclude = (typeof BATCH_DOWNLOAD_INCLUDE)[number];
/** The transcripts' file type in a batch download (the single-record exports' txt, Word and SubRip). */
export const BATCH_TRANSCRIPT_FORMATS = ["txt", "docx", "srt"] as const;
export type BatchTranscriptFormat = (typeof BATCH_TRANSCRIPT_FORMATS)[number];
