import { createHash } from "node:crypto";
import {
  JOBS,
  type NoteKind,
  type NoteTask,
  noteFailureText,
  type Passage,
  type Segment,
  StatusCode,
  ZNoteKind,
} from "@yuelu/contracts";
import { type Db, Prisma, type NoteTaskModel as Row } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { visibleTo } from "../records/library.ts";
import { segmentsOf } from "../records/segments.ts";
import { writeTranscript } from "../records/transcript.ts";
import { failStuckTasks, type JobLookup, MINUTE } from "../tasks/stuck.ts";
import { movableFrom, OPEN_TASK_STATES, progressValue, TaskState, taskColumns } from "../tasks/task-state.ts";
import { TX_OPTIONS, type Tx, transact } from "../transaction.ts";
import { llmBudgetTerms, reserveLlmTokens, settleNoteTask } from "./budget.ts";
import { chunkSegments, estimateNoteTokens, PROMPT_TOKENS, pieceTokens, segmentLineTokens } from "./chunks.ts";

/**
 * Notes tasks (docs/notes.md): a chapters, summary, translation or answer job of the notes queue, made with
 * the configured LLM. They move through the shared task states (tasks/task-state.ts); this file creates
 * them (reserving the day's tokens), answers what the pages show, and makes the moves a worker, its owner
 * (cancel) and housekeeping (stuck) make — each a conditional update, so exactly one of racing callers wins.
 */

type Ctx = Pick<DomainContext, "db" | "clock" | "config" | "events">;

/** Which segments a note was made from: an edit of the transcript afterwards makes the note stale. */
export function segmentsHash(segments: Pick<Segment, "spkName" | "text" | "startTime" | "endTime">[]): string {
  const hash = createHash("sha256");
  for (const s of segments) hash.update(`${s.startTime}\u0001${s.endTime}\u0001${s.spkName}\u0001${s.text}\u0002`);
  return hash.digest("hex").slice(0, 32);
}

/** The caller's record with its transcript (not in the recycle bin), else 30001. */
export async function ownTranscriptForNotes(db: Db | Tx, userId: number, fileId: number) {
  const record = await db.audioRecord.findFirst({
    where: { fileId, ...visibleTo(userId) },
    select: { fileId: true, fileName: true, transcript: { select: { asrResult: true, language: true } } },
  });
  if (!record?.transcript) throw new AppError(StatusCode.RecordNotFound);
  return {
    fileId: record.fileId,
    fileName: record.fileName,
    language: record.transcript.language,
    segments: segmentsOf(record.transcript.asrResult),
  };
}

export interface NewNoteTask {
  kind: NoteKind;
  /** null only for a question across all the user's records */
  fileId: number | null;
  target?: string;
  question?: string;
  /** answer: the passages it may cite */
  passages?: Passage[];
  requestId?: string | undefined;
}

/** 70002 unless the operator configured a model: nothing is sent anywhere otherwise. */
export function assertLlmConfigured(config: Pick<DomainContext["config"], "LLM_URL">): void {
  if (!config.LLM_URL) throw new AppError(StatusCode.LlmNotConfigured);
}

/**
 * A new task, queued, its estimated tokens reserved from the day's budget in the same transaction (over the
 * cap: 50008 and nothing is left). The same requestId again answers the first task with `created: false`.
 */
export async function createNoteTask(
  ctx: Ctx,
  userId: number,
  input: NewNoteTask,
): Promise<{ task: Row; created: boolean }> {
  assertLlmConfigured(ctx.config);
  const earlier = await byRequest(ctx.db, userId, input.requestId);
  if (earlier) return { task: earlier, created: false };

  let sourceHash = "";
  let language = "";
  let transcriptTokens = 0;
  let pieces = 1;
  if (input.fileId !== null) {
    const t = await ownTranscriptForNotes(ctx.db, userId, input.fileId);
    if (input.kind !== "answer" && t.segments.length === 0) throw new AppError(StatusCode.RecordNotFound);
    sourceHash = segmentsHash(t.segments);
    language = t.language;
    if (input.kind !== "answer") {
      transcriptTokens = t.segments.reduce((sum, s, i) => sum + segmentLineTokens(s, i), 0);
      pieces = chunkSegments(t.segments, pieceTokens(input.kind, ctx.config.LLM_CONTEXT_TOKENS)).length;
    }
  }
  if (input.kind === "answer") {
    transcriptTokens = (input.passages ?? []).reduce(
      (sum, p, i) => sum + segmentLineTokens({ spkName: p.speaker, text: p.text }, i),
      0,
    );
  }
  const reserve =
    input.kind === "answer"
      ? transcriptTokens + PROMPT_TOKENS + 600
      : estimateNoteTokens(input.kind, transcriptTokens, pieces);
  const terms = await llmBudgetTerms(ctx, userId);
  try {
    const task = await ctx.db.$transaction(async (tx) => {
      await reserveLlmTokens(tx, userId, terms, reserve);
      return tx.noteTask.create({
        data: {
          userId,
          fileId: input.fileId,
          kind: input.kind,
          target: input.target ?? "",
          question: input.question ?? "",
          context: input.passages ? (input.passages as unknown as Prisma.InputJsonArray) : Prisma.DbNull,
          sourceHash,
          language,
          requestId: input.requestId ?? null,
          status: TaskState.Queued,
          tokensReserved: reserve,
          budgetDay: terms.day,
          model: ctx.config.LLM_MODEL,
        },
      });
    }, TX_OPTIONS);
    return { task, created: true };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const raced = await byRequest(ctx.db, userId, input.requestId);
      if (raced) return { task: raced, created: false };
    }
    throw error;
  }
}

async function byRequest(db: Db, userId: number, requestId: string | undefined) {
  if (!requestId) return null;
  return db.noteTask.findUnique({ where: { userId_requestId: { userId, requestId } } });
}

/** The user's task or 20003 (another user's answers exactly like a missing one). */
export async function ownNoteTask(db: Db, userId: number, taskId: number): Promise<Row> {
  const task = await db.noteTask.findFirst({ where: { id: taskId, userId } });
  if (!task) throw new AppError(StatusCode.FileNotFound);
  return task;
}

/** A task as the pages see it; `currentHash`: the transcript's now (a note made from another is stale). */
export function noteTaskView(row: Row, lang: "zh" | "en", currentHash?: string): NoteTask {
  const failed = row.status === TaskState.Failed;
  return {
    taskId: row.id,
    fileId: row.fileId,
    kind: ZNoteKind.parse(row.kind),
    target: row.target,
    question: row.question,
    status: row.status,
    progress: row.progress,
    errorCode: row.errorCode,
    errorReason: row.errorReason,
    errorText: failed ? noteFailureText(row.errorReason, lang) : null,
    stale:
      currentHash !== undefined && row.kind !== "answer" && row.sourceHash !== "" && row.sourceHash !== currentHash,
    model: row.model,
    tokensUsed: row.tokensUsed,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    result: row.status === TaskState.Done ? ((row.result as NoteTask["result"]) ?? null) : null,
  };
}

/**
 * The record's notes: the newest task of each kind (a translation: of each target language), whatever its
 * state — a running one shows its progress, a failed one why. Answers are not notes of the record.
 */
export async function notesOfRecord(
  db: Db,
  userId: number,
  fileId: number,
): Promise<{ rows: Row[]; hash: string; segments: Segment[] }> {
  const t = await ownTranscriptForNotes(db, userId, fileId);
  const rows = await db.noteTask.findMany({
    where: { userId, fileId, kind: { in: ["chapters", "summary", "translation"] } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
  });
  const newest = new Map<string, Row>();
  for (const row of rows) {
    const key = `${row.kind}:${row.target}`;
    if (!newest.has(key)) newest.set(key, row);
  }
  return { rows: [...newest.values()], hash: segmentsHash(t.segments), segments: t.segments };
}

/** The newest done note of a kind for a record (exports use it), or null. */
export async function latestDoneNote(db: Db | Tx, userId: number, fileId: number, kind: NoteKind, target = "") {
  return db.noteTask.findFirst({
    where: { userId, fileId, kind, target, status: TaskState.Done },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
  });
}

// ───────────── moves ─────────────

/** An attempt starts: queued (or running, after a dead worker) → running. Null when it is not waiting for one. */
export async function claimNoteTask(ctx: Pick<Ctx, "db" | "clock">, taskId: number): Promise<Row | null> {
  const [row] = await ctx.db.noteTask.updateManyAndReturn({
    where: { id: taskId, status: movableFrom("claim") },
    data: taskColumns("claim", { now: ctx.clock.now() }),
  });
  return row ?? null;
}

/**
 * While it runs: its progress, the tokens the last call used, and the map steps done so far (kept so a
 * retried attempt continues). False when it is no longer running (cancelled, failed, deleted): stop.
 */
export async function reportNoteProgress(
  db: Db,
  taskId: number,
  update: { progress?: number; tokens?: number; partial?: Record<string, unknown> },
): Promise<boolean> {
  const { count } = await db.noteTask.updateMany({
    where: { id: taskId, status: TaskState.Running },
    data: {
      ...(update.progress !== undefined ? { progress: progressValue(update.progress) } : {}),
      ...(update.tokens ? { tokensUsed: { increment: update.tokens } } : {}),
      ...(update.partial ? { partial: update.partial as Prisma.InputJsonObject } : {}),
    },
  });
  return count === 1;
}

/** Between attempts: running → queued (its partial results stay). */
export async function retryNoteTask(ctx: Pick<Ctx, "db" | "clock">, taskId: number): Promise<boolean> {
  const { count } = await ctx.db.noteTask.updateMany({
    where: { id: taskId, status: movableFrom("retry") },
    data: taskColumns("retry", { now: ctx.clock.now() }),
  });
  return count === 1;
}

/**
 * The result is stored: running → done, the budget settled, and (a summary) the transcript's abstracts
 * written, all in one transaction. False when the task stopped running meanwhile (cancelled).
 */
export async function completeNoteTask(
  ctx: Ctx,
  taskId: number,
  result: Record<string, unknown>,
  /** a summary's text: the record's summary too (update_abstracts), written with the task */
  summary?: string,
): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const now = ctx.clock.now();
    const [row] = await tx.noteTask.updateManyAndReturn({
      where: { id: taskId, status: movableFrom("complete") },
      data: { ...taskColumns("complete", { now }), result: result as Prisma.InputJsonObject, partial: Prisma.DbNull },
    });
    if (!row) return false;
    await settleNoteTask(tx, taskId, now);
    if (summary !== undefined && row.fileId !== null) {
      await writeTranscript(tx, after, {
        fileId: row.fileId,
        userId: row.userId,
        change: "notes",
        fields: { abstracts: summary },
      });
    }
    after.publish({ type: "note.done", userId: row.userId, taskId, fileId: row.fileId, kind: row.kind });
    return true;
  });
}

export interface NoteTaskFailure {
  /** a NoteFailure of contracts/notes.ts */
  reason: string;
  /** for operators only */
  detail?: string;
}

/** The final failure (or a cancel): queued/running → failed, the budget settled, once. */
export async function failNoteTask(ctx: Ctx, taskId: number, failure: NoteTaskFailure): Promise<boolean> {
  return transact(ctx, async (tx, after) => {
    const now = ctx.clock.now();
    const [row] = await tx.noteTask.updateManyAndReturn({
      where: { id: taskId, status: movableFrom("fail") },
      data: {
        ...taskColumns("fail", {
          now,
          errorCode: StatusCode.NoteFailed,
          errorReason: failure.reason,
          errorMessage: failure.detail,
        }),
        partial: Prisma.DbNull,
      },
    });
    if (!row) return false;
    await settleNoteTask(tx, taskId, now);
    after.publish({ type: "note.failed", userId: row.userId, taskId, fileId: row.fileId, kind: row.kind });
    return true;
  });
}

/** The owner stops a queued or running task; an ended one is answered as it is (idempotent). */
export async function cancelNoteTask(ctx: Ctx, userId: number, taskId: number): Promise<Row> {
  await ownNoteTask(ctx.db, userId, taskId);
  await failNoteTask(ctx, taskId, { reason: "cancelled", detail: "cancelled by its owner" });
  return ownNoteTask(ctx.db, userId, taskId);
}

/** The longest one notes job may run: a 5-hour transcript is ~40 calls of a minute or two each. */
export const NOTE_RUN_LIMIT_MS = 90 * MINUTE;

/**
 * No notes task stays open forever (housekeeping, tasks/stuck.ts): one running past NOTE_RUN_LIMIT_MS,
 * queued for more than a day, or (older than 10 min) whose job is gone or ended without updating it, is
 * failed and settled.
 */
export async function failStuckNoteTasks(ctx: Ctx, options: { queue?: JobLookup } = {}): Promise<number> {
  const now = ctx.clock.now().getTime();
  const open = await ctx.db.noteTask.findMany({
    where: { status: { in: OPEN_TASK_STATES } },
    select: { id: true, status: true, createdAt: true, startedAt: true },
  });
  const rule = {
    limits: (task: { id: number }) => ({ runMs: NOTE_RUN_LIMIT_MS, jobId: JOBS.note.jobId({ taskId: task.id }) }),
    fail: (task: { id: number }, stuck: { detail: string }) =>
      failNoteTask(ctx, task.id, { reason: "failed", detail: stuck.detail }),
  };
  return failStuckTasks(open, rule, now, options.queue);
}
