import { z } from "zod";
import { zFlag, zId, zInt, zText } from "./common.ts";
import { ZSegment } from "./transcript.ts";

/**
 * Clips (docs/clips.md, issue 45): a stretch of a record, chosen by selecting words on /detail, cut into
 * its own audio (video where the source is a video) with its own captions, downloadable and shareable.
 */

/** A clip's title: at most this many characters (a longer one is refused: 10002). */
export const CLIP_TITLE_MAX = 100;
/** The shortest clip (ms): a word. */
export const CLIP_MIN_MS = 200;
/** The longest clip (ms): an hour. */
export const CLIP_MAX_MS = 3_600_000;
/** How many clips one record keeps at most (a further one: 10002 naming fileId). */
export const CLIPS_PER_RECORD_MAX = 200;

const zMs = zInt.pipe(z.number().int().min(0, "must be 0 or more").max(1_000_000_000, "must be at most 1000000000"));

export const ZClipCreateBody = z.object({
  fileId: zId,
  /** ms from the record's start: where the clip begins (the first selected word's start) */
  startTime: zMs,
  /** ms: where it ends (the last selected word's end) */
  endTime: zMs,
  /** default: the clip's words, cut to the title's length */
  title: zText({ max: CLIP_TITLE_MAX }).optional(),
});
export type ClipCreateBody = z.infer<typeof ZClipCreateBody>;

export const CLIP_KINDS = ["audio", "video"] as const;

/** A clip as create and list answer it. */
export const ZClip = z.object({
  clipId: z.number().int(),
  fileId: z.number().int(),
  title: z.string(),
  /** ms of the record */
  startTime: z.number().int(),
  endTime: z.number().int(),
  /** what is cut: audio, or video where the source has a video stream (known once cut) */
  kind: z.enum(CLIP_KINDS),
  /** the shared task states: 3 queued, 1 cutting, 2 done, -1 failed */
  status: z.number().int(),
  /** the clip's file (its video for a video clip): signed-in download, byte ranges served */
  url: z.string(),
  /** its audio alone (m4a) */
  audioUrl: z.string(),
  /** its captions: `&format=srt` or `vtt` (`&words=1`: word by word) */
  captionsUrl: z.string(),
  /** the record's segments within the clip, times from the clip's start (its captions) */
  segments: z.array(ZSegment),
  fileSize: z.number().int(),
  createTime: z.number().int(),
  /** why cutting failed (a failure reason), else null */
  errorReason: z.string().nullable(),
});
export type Clip = z.infer<typeof ZClip>;

export const ZClipListQuery = z.object({ fileId: zId });
export const ZClipList = z.object({ total: z.number().int(), list: z.array(ZClip) });
export type ClipList = z.infer<typeof ZClipList>;

export const ZClipDeleteBody = z.object({ clipId: zId });
export const ZClipDeleted = z.object({ clipId: z.number().int() });

/** The clip's file, its audio, or its captions. */
export const ZClipFileQuery = z.object({ clipId: zId });
export const ZClipCaptionsQuery = z.object({
  clipId: zId,
  format: z.enum(["srt", "vtt"]).optional().default("vtt"),
  words: zFlag.optional().default(false),
});
