import { z } from "zod";
import { zFlag, zId, zInt, zJsonText, zText } from "./common.ts";
import { zHotWordList } from "./dictation.ts";
import {
  DEFAULT_SPEAKER_NAME_PATTERN,
  isValidSpeakerName,
  MAX_ABSTRACTS_LENGTH,
  MAX_SEGMENT_TEXT,
  MAX_SEGMENTS,
  SPEAKER_NAME_MAX,
} from "./limits.ts";

/** Transcript reads, edits and exports (docs/records-api.md "Transcript"). */

/** One transcript segment; times in ms. */
export const ZSegment = z.object({
  spkName: z.string(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  text: z.string(),
  words: z.array(z.object({ text: z.string(), startTime: z.number().int(), endTime: z.number().int() })).optional(),
  /** People (docs/people.md): the diarization's speaker number (0-based), kept through renames and edits */
  speaker: z.number().int().optional(),
  /** the known person this speaker is (named by the user, or matched by voice) */
  personId: z.number().int().optional(),
  /** the name came from a voice match the user has not confirmed yet (POST /people/confirm) */
  suggested: z.boolean().optional(),
});
export type Segment = z.infer<typeof ZSegment>;

export const ZTranscriptFileQuery = z.object({ fileId: zId });
/**
 * get_text: `withWords=1` adds each segment's word timings (`words`), which the page does not need:
 * without them a 5-hour transcript is about 15× smaller.
 */
export const ZTextQuery = ZTranscriptFileQuery.extend({ withWords: zFlag.optional() });

/**
 * What the speech front end did to the recording before recognition (issue 29): noise reduced (and the
 * noise's colour), reverberation reduced, telephone-band audio, the level change, and what it measured. Null for transcripts
 * made before it existed.
 */
export const NOISE_COLOURS = ["white", "pink", "brown"] as const;
export const ZAudioNotes = z.object({
  denoised: z.boolean(),
  noise: z.enum(NOISE_COLOURS).optional(),
  /** late reverberation suppressed (a reverberant room); false for transcripts made before this existed */
  dereverberated: z.boolean(),
  narrowBand: z.boolean(),
  /** dB quiet speech was raised by; 0 when unchanged (loud speech is never lowered) */
  gainDb: z.number(),
  /** the estimated signal-to-noise ratio (dB) */
  snrDb: z.number(),
  /** the highest frequency the speech reaches (Hz) */
  bandwidthHz: z.number().int(),
  /** the estimated reverberation time (ms; 0 when unknown) */
  rt60Ms: z.number().int(),
});
export type AudioNotes = z.infer<typeof ZAudioNotes>;

/** get_text: spec §3 Transcript detail (asrResult is the JSON text of the segments) plus what the detail page shows. */
export const ZTextDetail = z.object({
  fileName: z.string(),
  updateTime: z.number().int(),
  asrResult: z.string(),
  fileId: z.number().int(),
  timeLen: z.number().int(),
  language: z.string(),
  abstracts: z.string(),
  audio: ZAudioNotes.nullable(),
  /** the transcript's version: every change adds one; an edit may name the version it was based on */
  version: z.number().int(),
});
export type TextDetail = z.infer<typeof ZTextDetail>;

const zMs = z
  .number()
  .min(0)
  .max(1_000_000_000)
  .transform((v) => Math.round(v));

const speakerReason = `only Chinese characters, English letters and digits, at most ${SPEAKER_NAME_MAX}`;
const zSegmentText = zText({ max: MAX_SEGMENT_TEXT, multiline: true, trim: false });

/** A segment as update_text accepts it (unknown keys dropped; endTime defaults to startTime). */
export const ZEditableSegment = z.object({
  spkName: z
    .string()
    .trim()
    .refine((n) => isValidSpeakerName(n) || DEFAULT_SPEAKER_NAME_PATTERN.test(n), { message: speakerReason }),
  startTime: zMs,
  endTime: zMs.optional(),
  text: zSegmentText,
  words: z
    .array(z.object({ text: zText({ max: 200, trim: false }), startTime: zMs, endTime: zMs }))
    .max(MAX_SEGMENT_TEXT)
    .optional(),
});
export type EditableSegment = z.infer<typeof ZEditableSegment>;

/** asrResult: the JSON text of the segments, or the array itself. */
export const zAsrResultInput = zJsonText(
  z.array(ZEditableSegment).max(MAX_SEGMENTS, `at most ${MAX_SEGMENTS} segments`),
  32 * 1024 * 1024,
);

/**
 * The version an edit was based on (get_text's `version`, or the last edit's answer). Given, an edit of a
 * transcript changed meanwhile (another tab, another device) is refused with 30002 and nothing is written;
 * left out, the edit applies to the current transcript (as before versions existed).
 */
export const zTranscriptVersion = zInt.pipe(z.number().int().min(1, "must be at least 1"));

export const ZUpdateTextBody = z.object({
  fileId: zId,
  asrResult: zAsrResultInput,
  version: zTranscriptVersion.optional(),
});
export const ZUpdateTextResult = z.object({
  fileId: z.number().int(),
  updateTime: z.number().int(),
  segments: z.number().int(),
  /** the transcript's version after the edit */
  version: z.number().int(),
});

export const ZUpdateParaBody = z.object({
  fileId: zId,
  index: zInt.pipe(
    z
      .number()
      .int()
      .min(0)
      .max(MAX_SEGMENTS - 1),
  ),
  text: zSegmentText.optional(),
  spkName: zText({ max: 1000 }).optional(),
  renameAll: zFlag.optional(),
  version: zTranscriptVersion.optional(),
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
  /** the transcript's version after the edit (unchanged when nothing changed) */
  version: z.number().int(),
});
export type UpdateParaResult = z.infer<typeof ZUpdateParaResult>;

export const ZHotWords = z.object({ hotWords: z.array(z.string()) });
export const ZHotWordsPutBody = z.object({ hotWords: zHotWordList });

export const ZTranscriptAbstractsBody = z.object({
  fileId: zId,
  abstracts: zText({ max: MAX_ABSTRACTS_LENGTH, multiline: true, trim: false }).optional(),
  /** with an LLM configured and no `abstracts`: the same requestId again answers the same summary task */
  requestId: z.string().trim().min(1).max(64).optional(),
});
export const ZTranscriptAbstracts = z.object({ abstracts: z.string() });

export const ZTranscriptExportQuery = z.object({
  fileId: zId,
  withSpeaker: zFlag.optional().default(true),
  withTime: zFlag.optional().default(true),
  /**
   * SRT/VTT only (docs/notes.md "Exports"): cues carry the record's done translation into this language
   * (10002 naming `translation` when there is none); `bilingual`: the original line, then the translation.
   */
  translation: z.enum(["zh", "en"]).optional(),
  bilingual: zFlag.optional().default(false),
  /** VTT only: a word-level cue, each word's start as a timestamp tag (docs/records-api.md "Word times") */
  words: zFlag.optional().default(false),
});
export const ZTranscriptShareUrl = z.object({ url: z.string() });
