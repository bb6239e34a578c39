import type { NoteFailure, Segment } from "@yuelu/contracts";
import type { NoteTaskModel } from "@yuelu/db";
import { AppError, claimNoteTask, completeNoteTask, ownTranscriptForNotes } from "@yuelu/domain";
import { LlmBadAnswerError, type LlmClient, LlmRefusedError, LlmUnavailableError } from "../engines/llm/index.ts";
import { makeAnswer } from "./notes-answer.ts";
import { makeChapters } from "./notes-chapters.ts";
import { noteLanguage } from "./notes-prompts.ts";
import { NoteRun, type NotesDomain, NoteTaskGoneError } from "./notes-run.ts";
import { makeSummary } from "./notes-summary.ts";
import { makeTranslation } from "./notes-translation.ts";

/**
 * The notes queue's job (docs/notes.md "How a note is made"): claim the task, read its transcript, make the
 * note with the model (map-reduce over pieces that fit its context), and store it — a summary also becomes
 * the transcript's abstracts, indexed for search, in the same transaction.
 */

export { NoteTaskGoneError };

export interface NoteJobContext {
  domain: NotesDomain;
  /** the configured model; null when LLM_URL is unset (a job then fails: the API never queues one) */
  llm: LlmClient | null;
  /** how often a running call checks that its task still runs (ms; default 2 s) */
  watchEveryMs?: number;
}

/** A failure another attempt cannot fix, with the NOTE_FAILURES reason it is stored under. */
export class PermanentNoteError extends Error {
  constructor(
    readonly reason: NoteFailure,
    message: string,
  ) {
    super(message);
    this.name = "PermanentNoteError";
  }
}

export async function runNoteJob(taskId: number, ctx: NoteJobContext) {
  const task = await claimNoteTask(ctx.domain, taskId);
  if (!task) throw new NoteTaskGoneError(taskId);
  if (!ctx.llm) {
    throw new PermanentNoteError("llm-unavailable", "no language model is configured on this worker: set LLM_URL");
  }
  const segments = task.fileId === null ? [] : await transcriptOf(ctx, task);
  const run = new NoteRun(ctx.domain, ctx.llm, task, ctx.watchEveryMs);
  try {
    const sample =
      task.kind === "answer"
        ? task.question
        : segments
            .slice(0, 50)
            .map((s) => s.text)
            .join("");
    const lang = noteLanguage(task.language, sample);
    let result: Record<string, unknown>;
    let abstracts: string | undefined;
    switch (task.kind) {
      case "chapters":
        result = await makeChapters(run, segments, lang);
        break;
      case "summary": {
        const summary = await makeSummary(run, segments, lang);
        abstracts = summary.abstracts;
        result = summary;
        break;
      }
      case "translation":
        result = await makeTranslation(run, segments, task.target === "en" ? "en" : "zh");
        break;
      case "answer":
        result = await makeAnswer(run, task.question, task.context, noteLanguage("", task.question));
        break;
      default:
        throw new PermanentNoteError("failed", `unknown note kind ${task.kind}`);
    }
    // a summary is the record's summary too (update_abstracts): search and webhooks hear of it
    const stored = await completeNoteTask(ctx.domain, taskId, result, abstracts);
    if (!stored) throw new NoteTaskGoneError(taskId);
    return { status: "done", taskId, kind: task.kind };
  } finally {
    run.stop();
  }
}

/** The record's segments; a record deleted (or put in the recycle bin) since it was asked: permanent. */
async function transcriptOf(ctx: NoteJobContext, task: NoteTaskModel): Promise<Segment[]> {
  try {
    const t = await ownTranscriptForNotes(ctx.domain.db, task.userId, task.fileId!);
    if (task.kind !== "answer" && t.segments.length === 0) {
      throw new PermanentNoteError("transcript-gone", `the transcript of record ${task.fileId} has no segments`);
    }
    return t.segments;
  } catch (error) {
    if (error instanceof AppError) {
      throw new PermanentNoteError("transcript-gone", `record ${task.fileId} or its transcript is gone`);
    }
    throw error;
  }
}

/** The NOTE_FAILURES reason a failed attempt is stored under, and the detail for operators. */
export function noteFailureOf(error: unknown): { reason: NoteFailure; detail: string } {
  const detail = (error as Error)?.message ?? String(error);
  if (error instanceof PermanentNoteError) return { reason: error.reason, detail };
  if (error instanceof LlmUnavailableError) return { reason: "llm-unavailable", detail };
  if (error instanceof LlmRefusedError) return { reason: "llm-refused", detail };
  if (error instanceof LlmBadAnswerError) return { reason: "llm-bad-answer", detail };
  return { reason: "failed", detail };
}

/** Refused requests and rejected answers (already asked twice) are not retried by another attempt. */
export function isPermanentNoteFailure(error: unknown): boolean {
  return error instanceof PermanentNoteError || error instanceof LlmRefusedError || error instanceof LlmBadAnswerError;
}
