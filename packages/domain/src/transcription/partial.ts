import { type DictationPartial, FileStatus, type PartialSegment } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { visibleRecord } from "../records/library.ts";
import { OPEN_TASK_STATES } from "../tasks/task-state.ts";
import type { Tx } from "../transaction.ts";

/**
 * The transcript while it is being made (issue 43, docs/records-api.md "Transcription"): what the running
 * task has recognised so far, read from its checkpoint (transcription_tasks.checkpoint, written by the
 * worker after each batch: apps/worker/src/jobs/checkpoint.ts). The checkpoint's `preview` is the text as
 * the finished transcript will read it (punctuated, Simplified Chinese); a checkpoint without one (written
 * by an older worker) is read from its raw segments. Only the owner's visible record answers; anything else
 * is 30001 like every record read.
 */
export async function partialTranscript(db: Db | Tx, userId: number, fileId: number): Promise<DictationPartial> {
  const record = await visibleRecord(db, userId, fileId);
  const answer: DictationPartial = {
    fileId,
    fileStatus: record.fileStatus,
    progress: record.fileStatus === FileStatus.Complete ? 100 : Math.max(0, Math.min(100, record.progress)),
    segments: [],
    upToMs: 0,
  };
  // a finished or failed task keeps no checkpoint; one waiting for another attempt keeps its last
  if (!OPEN_TASK_STATES.includes(record.fileStatus)) return answer;
  // Only the small parts of the checkpoint leave the database: never the raw segments' word timings.
  const [row] = await db.$queryRaw<{ offsetMs: number | null; segments: unknown }[]>`
    SELECT
      CASE WHEN jsonb_typeof(t.checkpoint->'offsetMs') = 'number' THEN (t.checkpoint->>'offsetMs')::float8 END AS "offsetMs",
      CASE
        WHEN jsonb_typeof(t.checkpoint->'preview') = 'array' THEN t.checkpoint->'preview'
        WHEN jsonb_typeof(t.checkpoint->'segments') = 'array' THEN (
          SELECT coalesce(jsonb_agg(
            jsonb_build_object('startTime', s->'startMs', 'endTime', s->'endMs', 'text', s->'text') ORDER BY n
          ), '[]')
          FROM jsonb_array_elements(t.checkpoint->'segments') WITH ORDINALITY AS e(s, n)
          WHERE jsonb_typeof(s) = 'object'
        )
      END AS segments
    FROM transcription_tasks t
    WHERE t."fileId" = ${fileId}::int AND t."userId" = ${userId}::int AND t.status = ANY(${OPEN_TASK_STATES}::int[])
    ORDER BY t.id DESC
    LIMIT 1`;
  if (!row || row.offsetMs === null) return answer;
  answer.segments = segmentsOf(row.segments);
  answer.upToMs = Math.max(0, Math.round(row.offsetMs));
  return answer;
}

/** The readable segments of a checkpoint's preview: whole-ms times, no empty text, anything malformed left out. */
function segmentsOf(value: unknown): PartialSegment[] {
  if (!Array.isArray(value)) return [];
  const out: PartialSegment[] = [];
  for (const s of value) {
    if (!s || typeof s !== "object") continue;
    const { startTime, endTime, text } = s as Record<string, unknown>;
    if (typeof startTime !== "number" || typeof endTime !== "number" || typeof text !== "string") continue;
    const trimmed = text.trim();
    if (!trimmed) continue;
    out.push({ startTime: Math.round(startTime), endTime: Math.round(endTime), text: trimmed });
  }
  return out;
}
