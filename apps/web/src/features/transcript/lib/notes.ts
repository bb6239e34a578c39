import type { NoteKind, NoteTask } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";

/** How often a queued or running note is asked about (docs/notes.md: the pages poll, the worker writes). */
export const NOTE_POLL_MS = 1500;

/** Note statuses are the task statuses of everywhere else: 3 queued, 1 running, 2 done, -1 failed. */
export function isNoteRunning(task: Pick<NoteTask, "status"> | null | undefined): boolean {
  return task?.status === FileStatus.InQueue || task?.status === FileStatus.Transcribing;
}
export const isNoteDone = (task: Pick<NoteTask, "status"> | null | undefined) => task?.status === FileStatus.Complete;
export const isNoteFailed = (task: Pick<NoteTask, "status"> | null | undefined) => task?.status === FileStatus.Failed;

/** The newest note of a kind (and, for translations, of a target) among the record's notes. */
export function noteOf(notes: readonly NoteTask[] | undefined, kind: NoteKind, target?: string): NoteTask | null {
  return notes?.find((n) => n.kind === kind && (target === undefined || n.target === target)) ?? null;
}

/** The record's notes with `task` in place of the one of its kind (and target) it replaces. */
export function withNote(notes: readonly NoteTask[], task: NoteTask): NoteTask[] {
  const same = (n: NoteTask) => n.kind === task.kind && (task.kind !== "translation" || n.target === task.target);
  return [task, ...notes.filter((n) => !same(n) && n.taskId !== task.taskId)];
}

/** A fresh id for one press of a create button: the server answers a repeat of it with the same task. */
export function newRequestId(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

const CJK = /[\u3400-\u9fff]/u;

/**
 * The language to translate into: English for a Chinese transcript, Chinese otherwise. The record's language
 * decides when it names one; "auto" transcripts are judged by their first segments' characters.
 */
export function translationTarget(language: string, texts: readonly string[]): "zh" | "en" {
  if (language.startsWith("zh")) return "en";
  if (language.startsWith("en")) return "zh";
  const sample = texts.slice(0, 30).join("");
  let cjk = 0;
  for (const ch of sample) if (CJK.test(ch)) cjk++;
  return sample.length > 0 && cjk / sample.length > 0.2 ? "en" : "zh";
}

/** A piece of an answer: plain text, or a citation `[n]` (n as the answer wrote it); `key`: its place in it. */
export type AnswerPiece = { key: string } & ({ text: string } | { cite: number });

/** An answer cut at its citations: "[1]", "[1][3]", "[1, 3]" and "[1，3]" each give one chip per number. */
export function answerPieces(answer: string): AnswerPiece[] {
  const out: AnswerPiece[] = [];
  let at = 0;
  for (const m of answer.matchAll(/\[(\d+(?:\s*[,，、]\s*\d+)*)\]/gu)) {
    if (m.index > at) out.push({ key: `${at}`, text: answer.slice(at, m.index) });
    for (const [k, n] of m[1]!.split(/[,，、]/u).entries())
      out.push({ key: `${m.index}.${k}`, cite: Number(n.trim()) });
    at = m.index + m[0].length;
  }
  if (at < answer.length) out.push({ key: `${at}`, text: answer.slice(at) });
  return out;
}
