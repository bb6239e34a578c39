import {
  type ActionItem,
  type Chapters,
  JOBS,
  type Lang,
  localSpeakerName,
  type Segment,
  StatusCode,
  ZChapter,
  ZChapters,
  ZSummaryNote,
  ZTranslationNote,
} from "@yuelu/contracts";
import type { Db, NoteTaskModel } from "@yuelu/db";
import {
  AppError,
  createNoteTask,
  type DomainContext,
  failNoteTask,
  latestDoneNote,
  type NewNoteTask,
  offlineActionItems,
  segmentsHash,
} from "@yuelu/domain";
import { enqueue, type QueueBackend } from "@yuelu/runtime";
import { z } from "zod";

/** AI notes (docs/notes.md): the parts that are the queue's, and what the exports and chapters read of notes. */

type Deps = { queues: QueueBackend; domain: DomainContext };

/**
 * Adds the task's job (the job table's `note` row); when that fails the task fails at once (its tokens given back)
 * and the call answers 99999.
 */
export async function enqueueNoteTask(deps: Deps, taskId: number): Promise<void> {
  try {
    await enqueue(deps.queues, JOBS.note, { taskId });
  } catch (error) {
    await failNoteTask(deps.domain, taskId, {
      reason: "failed",
      detail: `could not add the job: ${(error as Error).message}`,
    });
    throw new AppError(StatusCode.SystemError);
  }
}

/**
 * A note made with the LLM: created (its tokens reserved) and queued. The same requestId again answers
 * the first task and queues nothing (its job exists already).
 */
export async function startNoteTask(deps: Deps, userId: number, input: NewNoteTask): Promise<NoteTaskModel> {
  const { task, created } = await createNoteTask(deps.domain, userId, input);
  if (created) await enqueueNoteTask(deps, task.id);
  return task;
}

/** Default speaker labels in the reader's language ("说话人1" reads "Speaker 1" in English). */
export const forReaderSegments = <T extends Pick<Segment, "spkName">>(segments: T[], lang: Lang): T[] =>
  segments.map((s) => ({ ...s, spkName: localSpeakerName(s.spkName, lang) }));

/**
 * The chapters of the newest done chapters note, when it was made from the transcript as it is now: the LLM's,
 * or the offline ones it fell back to when the model gave none usable (then they say so: `fallback`).
 */
export async function llmChapters(
  db: Db,
  userId: number,
  fileId: number,
  segments: Segment[],
): Promise<Chapters | null> {
  const row = await latestDoneNote(db, userId, fileId, "chapters");
  if (!row || row.sourceHash !== segmentsHash(segments)) return null;
  const parsed = z.object({ chapters: z.array(ZChapter), fallback: ZChapters.shape.fallback }).safeParse(row.result);
  if (!parsed.success) return null;
  const { chapters, fallback } = parsed.data;
  return fallback?.chapters === "offline" ? { source: "offline", chapters, fallback } : { source: "llm", chapters };
}

/**
 * The to-dos the exports list: those of the newest done summary note (the LLM's), else those found offline in
 * the transcript as it is now.
 */
export async function exportTodos(db: Db, userId: number, fileId: number, segments: Segment[]): Promise<ActionItem[]> {
  const row = await latestDoneNote(db, userId, fileId, "summary");
  const parsed = row ? ZSummaryNote.safeParse(row.result) : null;
  if (parsed?.success) return parsed.data.todos;
  return offlineActionItems(segments);
}

/**
 * The translated text of each segment (by index) of the record's newest done translation into `target`;
 * a translated segment whose start no longer matches (the transcript was edited since) is left out, so the
 * cue shows the original. 10002 naming `translation` when there is no such translation.
 */
export async function translatedLines(
  db: Db,
  userId: number,
  fileId: number,
  target: "zh" | "en",
  segments: Segment[],
): Promise<Map<number, string>> {
  const row = await latestDoneNote(db, userId, fileId, "translation", target);
  const parsed = row ? ZTranslationNote.safeParse(row.result) : null;
  if (!parsed?.success) {
    throw AppError.invalid("translation", `no translation into ${target} has been made for this record`);
  }
  const lines = new Map<number, string>();
  for (const s of parsed.data.segments) {
    if (segments[s.index]?.startTime === s.startTime && s.text.trim() !== "") lines.set(s.index, s.text);
  }
  return lines;
}
