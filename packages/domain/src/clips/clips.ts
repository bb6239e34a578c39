import {
  CLIP_MAX_MS,
  CLIP_MIN_MS,
  CLIP_TITLE_MAX,
  CLIPS_PER_RECORD_MAX,
  type Clip,
  JOBS,
  type Segment,
  StatusCode,
  toEpochSeconds,
  withoutUnsafe,
  wordSpans,
} from "@yuelu/contracts";
import type { ClipModel as Row } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { visibleTo } from "../records/library.ts";
import { segmentsOf } from "../records/segments.ts";
import { failStuckTasks, type JobLookup, MINUTE } from "../tasks/stuck.ts";
import { movableFrom, OPEN_TASK_STATES, TaskState, taskColumns } from "../tasks/task-state.ts";
import { transact } from "../transaction.ts";

/**
 * Clips (docs/clips.md, issue 45): a stretch of one of the user's records, chosen on /detail by selecting
 * words, cut by the clips queue into its own file — the record's audio, or its video where the source is a
 * video — with the record's words in that stretch as its own captions. Cutting costs nothing (no beans, no
 * time card, no quota). Only the owner's visible records can be clipped; another user's record, or clip,
 * answers 30001 exactly like a missing one. A clip moves through the shared task states (tasks/task-state.ts).
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "events">;

/** How long one cut may run before housekeeping gives it up (a clip is at most an hour of media). */
export const CLIP_RUN_LIMIT_MS = 30 * MINUTE;

const notFound = () => new AppError(StatusCode.RecordNotFound);

export interface NewClip {
  fileId: number;
  startTime: number;
  endTime: number;
  title?: string | undefined;
}

/** Where a clip's files are (the API knows the origin): its file, its audio, its captions. */
export interface ClipUrls {
  file(clipId: number): string;
  audio(clipId: number): string;
  captions(clipId: number): string;
}

/**
 * A new clip of the caller's record, queued (the caller adds its job after this commits). 30001 unless the
 * record is theirs and visible; 10002 naming startTime/endTime when the stretch is not inside the record,
 * shorter than CLIP_MIN_MS or longer than CLIP_MAX_MS; 10002 naming fileId past CLIPS_PER_RECORD_MAX.
 */
export async function createClip(ctx: Ctx, userId: number, input: NewClip): Promise<Row> {
  return transact(ctx, async (tx) => {
    // the record's row locked: two creates at once count each other against the limit
    const [record] = await tx.$queryRaw<{ fileId: number; timeLen: number }[]>`
      SELECT "fileId", "timeLen" FROM audio_records
      WHERE "fileId" = ${input.fileId}::int AND "userId" = ${userId}::int AND "deletedAt" IS NULL
      FOR UPDATE`;
    if (!record) throw notFound();
    const lengthMs = record.timeLen * 1000;
    if (input.endTime <= input.startTime) throw AppError.invalid("endTime", "must be after startTime");
    if (lengthMs > 0 && input.startTime >= lengthMs) {
      throw AppError.invalid("startTime", `must be inside the recording (${lengthMs} ms)`);
    }
    // a record's length is whole seconds: the last word may end a little past it
    const endTime = lengthMs > 0 ? Math.min(input.endTime, lengthMs + 1000) : input.endTime;
    if (endTime - input.startTime < CLIP_MIN_MS)
      throw AppError.invalid("endTime", `at least ${CLIP_MIN_MS} ms after startTime`);
    if (endTime - input.startTime > CLIP_MAX_MS)
      throw AppError.invalid("endTime", `at most ${CLIP_MAX_MS} ms after startTime`);
    const count = await tx.clip.count({ where: { fileId: input.fileId } });
    if (count >= CLIPS_PER_RECORD_MAX)
      throw AppError.invalid("fileId", `at most ${CLIPS_PER_RECORD_MAX} clips per record`);
    const transcript = await tx.transcript.findUnique({ where: { fileId: input.fileId }, select: { asrResult: true } });
    const segments = clipSegments(transcript ? segmentsOf(transcript.asrResult) : [], input.startTime, endTime);
    const title = input.title?.trim() || defaultTitle(segments);
    return tx.clip.create({
      data: {
        userId,
        fileId: input.fileId,
        title,
        startTime: input.startTime,
        endTime,
        segments: segments as unknown as object[],
        status: TaskState.Queued,
        createdAt: ctx.clock.now(),
      },
    });
  });
}

/**
 * The record's segments within [from, to) of it, as the clip's captions: a word belongs when its middle
 * is inside; a segment keeps the part of its text those words cover (a segment without word times, when
 * its middle is inside, whole). Times are from the clip's start, within the clip.
 */
export function clipSegments(segments: readonly Segment[], from: number, to: number): Segment[] {
  const length = to - from;
  const at = (ms: number) => Math.max(0, Math.min(length, Math.round(ms - from)));
  const inside = (start: number, end: number) => (start + end) / 2 >= from && (start + end) / 2 < to;
  const out: Segment[] = [];
  for (const s of segments) {
    if (s.endTime <= from || s.startTime >= to) continue;
    const words = s.words ?? [];
    const spans = wordSpans(s.text);
    if (words.length > 0 && spans.length === words.length) {
      const kept = words.map((w, i) => ({ w, i })).filter(({ w }) => inside(w.startTime, w.endTime));
      if (kept.length === 0) continue;
      const first = kept[0]!;
      const last = kept[kept.length - 1]!;
      out.push({
        spkName: s.spkName,
        startTime: at(first.w.startTime),
        endTime: at(last.w.endTime),
        text: s.text.slice(spans[first.i]!.from, spans[last.i]!.to).trim(),
        words: kept.map(({ w }) => ({ text: w.text, startTime: at(w.startTime), endTime: at(w.endTime) })),
      });
    } else if (inside(s.startTime, s.endTime) || (s.startTime >= from && s.endTime <= to)) {
      out.push({ spkName: s.spkName, startTime: at(s.startTime), endTime: at(s.endTime), text: s.text });
    }
  }
  return out;
}

/** The clip's words, cut to the title's length; "" when it has none. */
function defaultTitle(segments: readonly Segment[]): string {
  const text = withoutUnsafe(
    segments
      .map((s) => s.text.trim())
      .join(" ")
      .replace(/\s+/g, " "),
  ).trim();
  const chars = [...text];
  return chars.length <= CLIP_TITLE_MAX ? text : `${chars.slice(0, CLIP_TITLE_MAX - 1).join("")}…`;
}

/** A clip as the API answers it. */
export function clipView(row: Row, urls: ClipUrls): Clip {
  return {
    clipId: row.id,
    fileId: row.fileId,
    title: row.title,
    startTime: row.startTime,
    endTime: row.endTime,
    kind: row.kind === "video" ? "video" : "audio",
    status: row.status,
    url: urls.file(row.id),
    audioUrl: urls.audio(row.id),
    captionsUrl: urls.captions(row.id),
    segments: segmentsOf(row.segments),
    fileSize: Number(row.fileSize),
    createTime: toEpochSeconds(row.createdAt) ?? 0,
    errorReason: row.status === TaskState.Failed ? (row.errorReason ?? "failed") : null,
  };
}

/** The caller's clip, or 30001 (someone else's answers exactly like a missing one). */
export async function ownClip(db: Ctx["db"], userId: number, clipId: number): Promise<Row> {
  const row = await db.clip.findFirst({ where: { id: clipId, userId, record: visibleTo(userId) } });
  if (!row) throw notFound();
  return row;
}

/** The clips of the caller's visible record, newest first; 30001 unless the record is theirs. */
export async function listClips(db: Ctx["db"], userId: number, fileId: number): Promise<Row[]> {
  const record = await db.audioRecord.findFirst({ where: { fileId, ...visibleTo(userId) }, select: { fileId: true } });
  if (!record) throw notFound();
  return db.clip.findMany({ where: { fileId, userId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
}

/**
 * Deletes the caller's clip: its row (and the share links to it, by cascade) in one statement, then its
 * files. A cut still running finds its clip gone and removes what it wrote. 30001 when it is not theirs.
 */
export async function deleteClip(ctx: Pick<DomainContext, "db" | "files">, userId: number, clipId: number) {
  const row = await ctx.db.clip.findFirst({
    where: { id: clipId, userId },
    select: { storageKey: true, audioKey: true },
  });
  if (!row) throw notFound();
  const { count } = await ctx.db.clip.deleteMany({ where: { id: clipId, userId } });
  if (count === 0) throw notFound();
  await removeClipFiles(ctx, [row]);
  return { clipId };
}

/** The files of clips whose rows are gone (a file already gone is no error). */
export async function removeClipFiles(
  ctx: Pick<DomainContext, "files">,
  rows: readonly Pick<Row, "storageKey" | "audioKey">[],
): Promise<void> {
  const keys = new Set(rows.flatMap((r) => [r.storageKey, r.audioKey]).filter((k): k is string => !!k));
  await Promise.all([...keys].map((key) => ctx.files.delete(key)));
}

// ───────────── the worker's moves ─────────────

/** What a cut needs: the clip, and its record's file. Null when the clip is not waiting for a cut. */
export async function claimClip(ctx: Pick<Ctx, "db" | "clock">, clipId: number) {
  const [row] = await ctx.db.clip.updateManyAndReturn({
    where: { id: clipId, status: movableFrom("claim") },
    data: taskColumns("claim", { now: ctx.clock.now() }),
  });
  if (!row) return null;
  const record = await ctx.db.audioRecord.findUnique({
    where: { fileId: row.fileId },
    select: { storageKey: true, format: true },
  });
  return record ? { clip: row, record } : null;
}

export interface CutResult {
  kind: "audio" | "video";
  storageKey: string;
  audioKey: string;
  fileSize: number;
}

/** The cut is stored: running → done with its files. False when the clip is gone or no longer running. */
export async function completeClip(ctx: Pick<Ctx, "db" | "clock">, clipId: number, cut: CutResult): Promise<boolean> {
  const { count } = await ctx.db.clip.updateMany({
    where: { id: clipId, status: movableFrom("complete") },
    data: { ...taskColumns("complete", { now: ctx.clock.now() }), ...cut, fileSize: BigInt(cut.fileSize) },
  });
  return count === 1;
}

/** Between attempts: running → queued. */
export async function retryClip(ctx: Pick<Ctx, "db" | "clock">, clipId: number): Promise<boolean> {
  const { count } = await ctx.db.clip.updateMany({
    where: { id: clipId, status: movableFrom("retry") },
    data: taskColumns("retry", { now: ctx.clock.now() }),
  });
  return count === 1;
}

/** The last attempt failed (or one no attempt can fix): → failed, with why. Nothing to refund. */
export async function failClip(
  ctx: Pick<Ctx, "db" | "clock">,
  clipId: number,
  failure: { reason: string; detail?: string },
): Promise<boolean> {
  const { count } = await ctx.db.clip.updateMany({
    where: { id: clipId, status: movableFrom("fail") },
    data: taskColumns("fail", {
      now: ctx.clock.now(),
      errorCode: StatusCode.FileNotFound,
      errorReason: failure.reason,
      errorMessage: failure.detail,
    }),
  });
  return count === 1;
}

/** Housekeeping: clips queued or cutting past their limits, or whose job is gone, failed. */
export async function failStuckClips(ctx: Pick<Ctx, "db" | "clock">, options: { queue?: JobLookup } = {}) {
  const open = await ctx.db.clip.findMany({
    where: { status: { in: OPEN_TASK_STATES } },
    select: { id: true, status: true, createdAt: true, startedAt: true },
  });
  const rule = {
    limits: (clip: { id: number }) => ({
      runMs: CLIP_RUN_LIMIT_MS,
      jobId: JOBS.clip.jobId({ clipId: clip.id }),
      doing: "cutting",
    }),
    fail: (clip: { id: number }, stuck: { reason: string; detail: string }) =>
      failClip(ctx, clip.id, { reason: stuck.reason, detail: stuck.detail }),
  };
  return failStuckTasks(open, rule, ctx.clock.now().getTime(), options.queue);
}
