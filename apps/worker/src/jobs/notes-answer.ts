import { type AnswerNote, type Passage, ZPassage } from "@yuelu/contracts";
import { proseOf } from "../engines/llm/index.ts";
import { answerPrompt, type NoteLang, ZAnswerAnswer } from "./notes-prompts.ts";
import { badAnswer, type NoteRun } from "./notes-run.ts";

const NOTHING: Record<NoteLang, string> = {
  zh: "录音里没有找到与这个问题相关的内容。",
  en: "Nothing in the recordings matches this question.",
};

/** a plain-text answer is cut here */
export const PROSE_ANSWER_CHARS = 4000;

/**
 * An answer to a question (docs/notes.md "Ask the transcript"): one call over the passages chosen when it was
 * asked (`task.context`), citing them by number; a number that is not one of them rejects the answer. A model
 * that answers in plain text is taken at its word (`fallback.answer: "prose"`): its citations are the [n] it
 * wrote, under the same rule, and there may be none.
 */
export async function makeAnswer(
  run: NoteRun,
  question: string,
  context: unknown,
  lang: NoteLang,
): Promise<AnswerNote> {
  const parsed = ZPassage.array().safeParse(context ?? []);
  const passages: Passage[] = parsed.success ? parsed.data : [];
  run.total = 1;
  // nothing to rest an answer on: the model is not asked (and nothing is sent)
  if (passages.length === 0) return { answer: NOTHING[lang], citations: [] };
  const answer = await run.ask(answerPrompt(lang, question, passages), ZAnswerAnswer, {
    check: (a) => {
      for (const n of cited(a.answer, a.citations)) {
        if (n < 1 || n > passages.length) {
          badAnswer(`the answer cites passage ${n}, but only passages 1–${passages.length} were given`);
        }
      }
    },
    prose: (reply) => {
      const text = proseOf(reply, PROSE_ANSWER_CHARS);
      return text ? { answer: text, citations: [] } : undefined;
    },
  });
  const numbers = cited(answer.answer, answer.citations);
  return {
    answer: answer.answer,
    citations: numbers.map((n) => ({ ...passages[n - 1]!, n })),
    ...(answer.fromProse ? { fallback: { answer: "prose" as const } } : {}),
  };
}

/** The numbers listed and those marked [n] in the text, each once, in order. */
function cited(text: string, listed: number[]): number[] {
  const marked = [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  return [...new Set([...listed, ...marked])].sort((a, b) => a - b);
}
