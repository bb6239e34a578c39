import type { Passage, Segment } from "@yuelu/contracts";
import { z } from "zod";
import type { LlmMessage } from "../engines/llm/index.ts";

/**
 * The notes job's prompts and the JSON it asks back (docs/notes.md "Prompts"). Every system message starts
 * with two machine-readable lines, `YUELU-TASK: <name>` and `YUELU-LANG: zh|en` (the language to write in),
 * so a test's fake server and an operator reading the model server's log know what each call asks. The
 * instructions are in English (models follow them best) and short: they must fit PROMPT_TOKENS with the answer.
 */

export type NoteLang = "zh" | "en";
export type PromptTask = "chapters" | "chapters-merge" | "summary" | "summary-merge" | "translation" | "answer";

/** The language to write in: the transcript's, else what its text looks like (Chinese first). */
export function noteLanguage(language: string, sample: string): NoteLang {
  if (language.startsWith("en")) return "en";
  if (language.startsWith("zh")) return "zh";
  return /[\u4e00-\u9fff]/.test(sample) || !/[a-z]/i.test(sample) ? "zh" : "en";
}

const WRITE_IN: Record<NoteLang, string> = {
  zh: "Write every text value in Simplified Chinese (简体中文).",
  en: "Write every text value in English.",
};

/** One transcript segment as a prompt line, exactly as chunks.ts counts it: `[index] speaker: text`. */
export function segmentLine(segment: Pick<Segment, "spkName" | "text">, index: number): string {
  return `[${index}] ${segment.spkName}: ${segment.text.replace(/[\r\n]+/g, " ")}`;
}

export function segmentLines(segments: Pick<Segment, "spkName" | "text">[], from: number, to: number): string {
  const lines: string[] = [];
  for (let i = from; i <= to; i++) lines.push(segmentLine(segments[i]!, i));
  return lines.join("\n");
}

function system(task: PromptTask, lang: NoteLang, ...lines: string[]): LlmMessage {
  return {
    role: "system",
    content: [
      `YUELU-TASK: ${task}`,
      `YUELU-LANG: ${lang}`,
      ...lines,
      WRITE_IN[lang],
      "Reply with exactly one JSON object in the form shown and nothing else.",
    ].join("\n"),
  };
}

/** The `YUELU-TASK:` of a call's messages (its structured output is named after it). */
export function promptTask(messages: LlmMessage[]): string {
  return /^YUELU-TASK: *([\w-]+)/m.exec(messages[0]?.content ?? "")?.[1] ?? "answer";
}

/** What is added to the system message when the same call is asked again after an answer that was rejected. */
export function stricter(messages: LlmMessage[], why: string): LlmMessage[] {
  const [first, ...rest] = messages;
  const reminder =
    `IMPORTANT: your previous reply was rejected (${why.slice(0, 300)}). ` +
    "Reply with the JSON object only: no prose, no code fences, every field as shown.";
  return [{ role: "system", content: `${first!.content}\n${reminder}` }, ...rest];
}

const TRANSCRIPT_IS = "You are given part of a recording's transcript, one segment per line: [index] speaker: text.";

export function chaptersPrompt(lang: NoteLang, lines: string): LlmMessage[] {
  return [
    system(
      "chapters",
      lang,
      TRANSCRIPT_IS,
      "Split it into chapters where the topic changes (usually 3 to 15 minutes each). For each chapter give the",
      "index of its first segment, a short title (at most 12 words) and a gist of one or two sentences.",
      "The first chapter starts at the first index given; `from` values ascend.",
      'Form: {"chapters":[{"from":<index>,"title":"…","gist":"…"}]}',
    ),
    { role: "user", content: lines },
  ];
}

export function chaptersMergePrompt(lang: NoteLang, chapters: { from: number; title: string; gist: string }[]) {
  return [
    system(
      "chapters-merge",
      lang,
      "You are given a recording's chapters in order, as JSON. Adjacent chapters may be parts of the same topic:",
      "join those, keeping the `from` of the first of each group, and write each chapter's title (at most 12",
      "words) and gist (one or two sentences). Keep the first chapter; use only `from` values given.",
      'Form: {"chapters":[{"from":<index>,"title":"…","gist":"…"}]}',
    ),
    { role: "user", content: JSON.stringify({ chapters }) },
  ] satisfies LlmMessage[];
}

export function summaryPrompt(lang: NoteLang, lines: string): LlmMessage[] {
  return [
    system(
      "summary",
      lang,
      TRANSCRIPT_IS,
      "Summarise it in one paragraph (what was discussed and decided). List the to-dos someone said they or",
      "another will do: the task, its owner (the speaker's name as written, or null), the due date as said",
      "(or null) and the index of the segment it was said in. No to-dos: an empty list.",
      'Form: {"summary":"…","todos":[{"text":"…","owner":"…"|null,"due":"…"|null,"segment":<index>}]}',
    ),
    { role: "user", content: lines },
  ];
}

export function summaryMergePrompt(lang: NoteLang, summaries: string[]): LlmMessage[] {
  return [
    system(
      "summary-merge",
      lang,
      "You are given summaries of consecutive parts of one recording, in order, as JSON. Write one summary of the",
      "whole recording from them (one or two paragraphs): what was discussed and decided.",
      'Form: {"summary":"…"}',
    ),
    { role: "user", content: JSON.stringify({ summaries }) },
  ];
}

export function translationPrompt(target: NoteLang, lines: string): LlmMessage[] {
  const into = target === "zh" ? "Simplified Chinese" : "English";
  return [
    system(
      "translation",
      target,
      TRANSCRIPT_IS,
      `Translate every segment's text into ${into}, faithfully, segment by segment: one entry per index given,`,
      "the same indexes, none left out or added; speakers' names are not part of the text.",
      'Form: {"translations":[{"i":<index>,"text":"…"}]}',
    ),
    { role: "user", content: lines },
  ];
}

/** mm:ss (h:mm:ss from an hour) of a time in ms. */
export function clock(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  const h = Math.floor(s / 3600);
  return h ? `${h}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` : `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

export function answerPrompt(lang: NoteLang, question: string, passages: Passage[]): LlmMessage[] {
  const lines = passages.map(
    (p, i) => `[${i + 1}] (${clock(p.startTime)}) ${p.speaker}: ${p.text.replace(/[\r\n]+/g, " ")}`,
  );
  return [
    system(
      "answer",
      lang,
      "Answer the question using only the numbered passages of recordings given: [n] (time) speaker: text.",
      "Cite the passages each statement rests on as [n] in the answer and list their numbers. If the passages",
      "do not contain the answer, say so plainly and cite nothing. Do not invent.",
      'Form: {"answer":"… [1] …","citations":[1]}',
    ),
    { role: "user", content: `Passages:\n${lines.join("\n")}\n\nQuestion: ${question}` },
  ];
}

// ───────────── answers ─────────────

const text = z.string().trim();
const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v?.trim() ? v.trim() : null));

export const ZChaptersAnswer = z.object({
  chapters: z.array(z.object({ from: z.number().int(), title: text.min(1), gist: text })).min(1),
});
export type ChaptersAnswer = z.infer<typeof ZChaptersAnswer>;

export const ZSummaryAnswer = z.object({
  summary: text.min(1),
  todos: z
    .array(z.object({ text: text.min(1), owner: nullableText, due: nullableText, segment: z.number().int() }))
    .default([]),
});
export type SummaryAnswer = z.infer<typeof ZSummaryAnswer>;

export const ZSummaryMergeAnswer = z.object({ summary: text.min(1) });

export const ZTranslationAnswer = z.object({
  translations: z.array(z.object({ i: z.number().int(), text: z.string() })),
});
export type TranslationAnswer = z.infer<typeof ZTranslationAnswer>;

export const ZAnswerAnswer = z.object({
  answer: text.min(1),
  citations: z.array(z.number().int()).default([]),
});
