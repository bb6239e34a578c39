import { createHash } from "node:crypto";
import type { PartialSegment } from "@yuelu/contracts";
import type { SpeechRegion } from "../audio/vad.ts";
import type { AsrSegment } from "../engines/asr/types.ts";
import { punctuate } from "../speech/punctuate.ts";

/**
 * Checkpoints of a transcription (issue 32): what an attempt recognised before it was cut (SIGKILL,
 * crash, the grace period of a deploy), stored in transcription_tasks.checkpoint, so the next attempt
 * recognises only the rest. Pure rules here; transcribe.ts writes and reads them.
 *
 * A checkpoint is trusted only when everything that decides the recognised text is the same: the
 * stored file (key and size), the decoded audio (its length in samples), the engine and its model,
 * the language asked for, the hot words and the speech regions found (their digest). Anything else
 * — another engine configured since, a hot word added — starts from the beginning.
 */

export const CHECKPOINT_VERSION = 1;

/** What must match for a checkpoint to be used. */
export interface CheckpointBasis {
  storageKey: string;
  size: number;
  /** 16 kHz samples of the decoded audio */
  samples: number;
  engine: string;
  model: string;
  language: string;
  hotWords: readonly string[];
  /** regionsDigest() of the speech regions the engine is given */
  regions: string;
}

export interface TranscriptionCheckpoint {
  v: typeof CHECKPOINT_VERSION;
  basis: CheckpointBasis;
  /** the regions ending at or before this (ms of the recording) are recognised */
  offsetMs: number;
  /** how many of the regions that is */
  regionsDone: number;
  segments: AsrSegment[];
  /**
   * The same segments as the owner reads them while the task runs (issue 43: /detail shows the text
   * recognised so far, `partialTranscript` in packages/domain): punctuated as the finished transcript
   * will be, without word timings or empty text. Never used to resume.
   */
  preview?: PartialSegment[];
  /** the language the engine heard ("auto" tasks) */
  language?: string;
  /** the attempt that wrote it (transcription_tasks.attempts) */
  attempt: number;
  savedAt: string;
}

/** A short digest of the speech regions: the same audio through the same front end gives the same regions. */
export function regionsDigest(regions: readonly SpeechRegion[]): string {
  const hash = createHash("sha256");
  for (const r of regions) hash.update(`${Math.round(r.startMs)}-${Math.round(r.endMs)};`);
  return `${regions.length}:${hash.digest("hex").slice(0, 16)}`;
}

/** Segments as the owner reads them before the transcript is finished (the checkpoint's `preview`). */
export function previewOf(segments: readonly AsrSegment[], language: string): PartialSegment[] {
  const out: PartialSegment[] = [];
  for (const s of segments) {
    const text = punctuate(s.text, language);
    if (text) out.push({ startTime: Math.round(s.startMs), endTime: Math.round(s.endMs), text });
  }
  return out;
}

/**
 * The regions in batches of about `batchMs` of recording each (cut only between regions): one engine
 * call per batch, a checkpoint after each. Batches follow from the regions alone, so an uncut run and
 * a resumed one hand the engine the same groups and recognise the same text.
 */
export function batchRegions(regions: readonly SpeechRegion[], batchMs: number): SpeechRegion[][] {
  const batches: SpeechRegion[][] = [];
  let current: SpeechRegion[] = [];
  for (const r of regions) {
    current.push(r);
    if (r.endMs - current[0]!.startMs >= batchMs) {
      batches.push(current);
      current = [];
    }
  }
  if (current.length) batches.push(current);
  return batches;
}

/**
 * The checkpoint's segments and the regions still to recognise, when `stored` (the task's checkpoint
 * column, any JSON) is a checkpoint of this very work; null when there is none or it cannot be
 * trusted (another basis, another version, a shape we do not know, an offset inside a region).
 */
export function resumePoint(
  stored: unknown,
  basis: CheckpointBasis,
  regions: readonly SpeechRegion[],
): { checkpoint: TranscriptionCheckpoint; remaining: SpeechRegion[] } | null {
  if (!isCheckpoint(stored) || !sameBasis(stored.basis, basis)) return null;
  const { offsetMs, regionsDone } = stored;
  if (regionsDone <= 0 || regionsDone > regions.length) return null;
  // The offset must be exactly the end of the last region it claims: a checkpoint cut between regions.
  if (regions[regionsDone - 1]!.endMs !== offsetMs) return null;
  return { checkpoint: stored, remaining: regions.slice(regionsDone) };
}

export function sameBasis(a: CheckpointBasis, b: CheckpointBasis): boolean {
  return (
    a.storageKey === b.storageKey &&
    a.size === b.size &&
    a.samples === b.samples &&
    a.engine === b.engine &&
    a.model === b.model &&
    a.language === b.language &&
    a.regions === b.regions &&
    a.hotWords.length === b.hotWords.length &&
    a.hotWords.every((w, i) => w === b.hotWords[i])
  );
}

function isCheckpoint(value: unknown): value is TranscriptionCheckpoint {
  if (!value || typeof value !== "object") return false;
  const c = value as Partial<TranscriptionCheckpoint>;
  const b = c.basis as Partial<CheckpointBasis> | undefined;
  return (
    c.v === CHECKPOINT_VERSION &&
    typeof c.offsetMs === "number" &&
    Number.isInteger(c.regionsDone) &&
    Array.isArray(c.segments) &&
    c.segments.every(
      (s) => s && typeof s.startMs === "number" && typeof s.endMs === "number" && typeof s.text === "string",
    ) &&
    !!b &&
    typeof b.storageKey === "string" &&
    typeof b.size === "number" &&
    typeof b.samples === "number" &&
    typeof b.engine === "string" &&
    typeof b.model === "string" &&
    typeof b.language === "string" &&
    typeof b.regions === "string" &&
    Array.isArray(b.hotWords)
  );
}
