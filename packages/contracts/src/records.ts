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
