import { z } from "zod";

/**
 * AI notes (issue 24; docs/notes.md). Chapters: the transcript cut where its topic changes, each with its time
 * range (ms, like the transcript's segments), a title and a gist of up to two sentences. `source` says how they
 * were made: "offline" (lexical cohesion, packages/domain/src/notes/chapters.ts) or "llm" (a configured model).
 */
export const ZChapter = z.object({
  /** index of the chapter's first and last segment in the transcript */
  from: z.number().int(),
  to: z.number().int(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  title: z.string(),
  gist: z.array(z.string()),
});
export type Chapter = z.infer<typeof ZChapter>;

/**
 * The parts of a note that are not the model's JSON answer (docs/notes.md "When the model answers in prose"),
 * each under the result's own field name: "prose" — the model's own words, read from a reply that was not the
 * JSON asked for (chatter around them cut); "offline" — made by the offline method instead, the model's answer
 * having nothing usable for that part. Absent (or a part not named): the model's JSON answer, as asked.
 */
const byProse = z.literal("prose").optional();
const byOffline = z.literal("offline").optional();

export const ZChapters = z.object({
  source: z.enum(["offline", "llm"]),
  chapters: z.array(ZChapter),
  /** a chapters note whose model gave no usable chapters: `{chapters: "offline"}` (and `source` is "offline") */
  fallback: z.object({ chapters: byOffline }).optional(),
});
export type Chapters = z.infer<typeof ZChapters>;

// ───────────── LLM notes: tasks, results, budget, questions (docs/notes.md) ─────────────

/** What a notes task makes. `answer`: an answer to a question, citing the passages it rests on. */
export const NOTE_KINDS = ["chapters", "summary", "translation", "answer"] as const;
export const ZNoteKind = z.enum(NOTE_KINDS);
export type NoteKind = z.infer<typeof ZNoteKind>;

// The queue job ("note" `{taskId}`, jobId `note-<taskId>`) is a row of the job table (jobs.ts).

/** Why a note failed (errorReason of a failed task); `cancelled` when its owner stopped it. */
export const NOTE_FAILURES = [
  "cancelled",
  "llm-unavailable",
  "llm-bad-answer",
  "llm-refused",
  "transcript-gone",
  "failed",
] as const;
export type NoteFailure = (typeof NOTE_FAILURES)[number];

const noteFailureTexts: Record<NoteFailure, { zh: string; en: string }> = {
  cancelled: { zh: "已取消", en: "cancelled" },
  "llm-unavailable": {
    zh: "大语言模型服务无法连接或超时",
    en: "the language model server could not be reached or timed out",
  },
  "llm-bad-answer": {
    zh: "大语言模型的回答格式不正确，已放弃",
    en: "the language model's answer was not in the expected form, so it was rejected",
  },
  "llm-refused": { zh: "大语言模型服务拒绝了请求", en: "the language model server refused the request" },
  "transcript-gone": { zh: "转写内容已删除", en: "the transcript was deleted" },
  failed: { zh: "处理失败", en: "something went wrong" },
};
export function noteFailureText(reason: string | null | undefined, lang: "zh" | "en"): string {
  return (noteFailureTexts[reason as NoteFailure] ?? noteFailureTexts.failed)[lang];
}

/** A to-do said in the recording: who (a speaker's name, when said or clear), by when (as said), and where. */
export const ZActionItem = z.object({
  text: z.string(),
  owner: z.string().nullable(),
  /** the due date as it was said ("下周五", "by Friday"), null when none was */
  due: z.string().nullable(),
  /** the segment it was said in (index into the transcript's segments) and its start (ms) */
  segmentIndex: z.number().int(),
  startTime: z.number().int(),
});
export type ActionItem = z.infer<typeof ZActionItem>;

export const ZSummaryNote = z.object({
  abstracts: z.string(),
  todos: z.array(ZActionItem),
  /** `abstracts: "prose"`: the model's plain-text summary; `todos: "offline"`: the to-dos found offline */
  fallback: z.object({ abstracts: byProse, todos: byOffline }).optional(),
});
export type SummaryNote = z.infer<typeof ZSummaryNote>;

/** One translated segment: the same index and times as the transcript's segment. */
export const ZTranslatedSegment = z.object({
  index: z.number().int(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  text: z.string(),
});
export const ZTranslationNote = z.object({
  target: z.enum(["zh", "en"]),
  segments: z.array(ZTranslatedSegment),
  /** `segments: "prose"`: read from the model's plain-text lines, one per segment sent, in order */
  fallback: z.object({ segments: byProse }).optional(),
});
export type TranslationNote = z.infer<typeof ZTranslationNote>;

/** A passage of a transcript: what an offline question finds, and what an answer may cite. */
export const ZPassage = z.object({
  fileId: z.number().int(),
  fileName: z.string(),
  segmentIndex: z.number().int(),
  startTime: z.number().int(),
  endTime: z.number().int(),
  speaker: z.string(),
  text: z.string(),
});
export type Passage = z.infer<typeof ZPassage>;

/** A passage an answer cites: `[n]` in the answer refers to the citation whose `n` it is. */
export const ZCitation = ZPassage.extend({ n: z.number().int().positive() });
export type Citation = z.infer<typeof ZCitation>;
export const ZAnswerNote = z.object({
  answer: z.string(),
  citations: z.array(ZCitation),
  /** `answer: "prose"`: the model's plain-text answer; its citations are only the [n] it wrote in it */
  fallback: z.object({ answer: byProse }).optional(),
});
export type AnswerNote = z.infer<typeof ZAnswerNote>;

/** A notes task as the pages see it. `result` is the kind's shape once status is 2 (done). */
export const ZNoteTask = z.object({
  taskId: z.number().int(),
  fileId: z.number().int().nullable(),
  kind: ZNoteKind,
  target: z.string(),
  question: z.string(),
  /** task statuses as everywhere: 3 queued, 1 running, 2 done, -1 failed (errorReason "cancelled": stopped) */
  status: z.number().int(),
  progress: z.number().int(),
  errorCode: z.number().int().nullable(),
  errorReason: z.string().nullable(),
  /** the failure in the caller's language */
  errorText: z.string().nullable(),
  /** the transcript was edited after this note was made */
  stale: z.boolean(),
  model: z.string(),
  tokensUsed: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  result: z.union([ZChapters, ZSummaryNote, ZTranslationNote, ZAnswerNote]).nullable(),
});
export type NoteTask = z.infer<typeof ZNoteTask>;

/** Where notes text goes: whether a model is configured, which, on which host, and whether it answers. */
export const ZLlmStatus = z.object({
  configured: z.boolean(),
  model: z.string().nullable(),
  /** host (and port) of LLM_URL: the pages tell users their text is sent there */
  host: z.string().nullable(),
  /** null: not checked (not configured); the last check's outcome otherwise */
  answering: z.boolean().nullable(),
  problem: z.string().nullable(),
  checkedAt: z.string().nullable(),
});
export type LlmStatus = z.infer<typeof ZLlmStatus>;

export const ZLlmBudget = z.object({
  used: z.number().int(),
  limit: z.number().int(),
  member: z.boolean(),
});
export type LlmBudget = z.infer<typeof ZLlmBudget>;

/** GET /text/notes?fileId=: the record's notes — the newest task of each kind (and translation target). */
export const ZNotesOfRecord = z.object({
  llm: ZLlmStatus,
  budget: ZLlmBudget,
  notes: z.array(ZNoteTask),
  /** made without a model from the transcript as it is now (always there, LLM or not) */
  offline: z.object({ todos: z.array(ZActionItem) }),
});
export type NotesOfRecord = z.infer<typeof ZNotesOfRecord>;

const ZRequestId = z.string().trim().min(1).max(64).optional();

/** POST /text/notes: make a note with the LLM (70002 when none is configured). */
export const ZCreateNoteBody = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("chapters"), fileId: z.coerce.number().int().positive(), requestId: ZRequestId }),
  z.object({ kind: z.literal("summary"), fileId: z.coerce.number().int().positive(), requestId: ZRequestId }),
  z.object({
    kind: z.literal("translation"),
    fileId: z.coerce.number().int().positive(),
    target: z.enum(["zh", "en"]),
    requestId: ZRequestId,
  }),
]);
export type CreateNoteBody = z.infer<typeof ZCreateNoteBody>;

export const ZNoteTaskQuery = z.object({ taskId: z.coerce.number().int().positive() });
export const ZCancelNoteBody = z.object({ taskId: z.coerce.number().int().positive() });

/**
 * POST /text/ask: a question about one record (fileId) or all of mine (no fileId). Answers at once with the
 * best-matching passages; with an LLM configured it also starts an answer task (`task`) that cites them.
 */
export const ZAskBody = z.object({
  question: z.string().trim().min(1).max(500),
  fileId: z.coerce.number().int().positive().optional(),
  requestId: ZRequestId,
});
export type AskBody = z.infer<typeof ZAskBody>;
export const ZAskResult = z.object({
  /** always "passages": what is listed are passages of the transcript, not an answer */
  mode: z.literal("passages"),
  passages: z.array(ZPassage),
  /** the LLM's answer, being made (poll GET /text/notes/task); null when no LLM is configured */
  task: ZNoteTask.nullable(),
});
export type AskResult = z.infer<typeof ZAskResult>;

/** Estimated tokens of a text: one per CJK character, one per four other characters (docs/notes.md). */
export function estimateTokens(text: string): number {
  let cjk = 0;
  for (const ch of text) if (/[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]/u.test(ch)) cjk++;
  const rest = text.length - cjk;
  return cjk + Math.ceil(rest / 4);
}

/**
 * update_abstracts' answer (spec: `{abstracts}`). Called without `abstracts` it summarises: offline at once
 * (extractive), or, with an LLM configured, by a summary task whose progress `task` shows — `abstracts` is
 * then the current text until the task writes the new one.
 */
export const ZTranscriptAbstractsResult = z.object({
  abstracts: z.string(),
  task: ZNoteTask.nullable().optional(),
});
export type TranscriptAbstractsResult = z.infer<typeof ZTranscriptAbstractsResult>;
