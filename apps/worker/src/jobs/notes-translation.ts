import type { Segment, TranslationNote } from "@yuelu/contracts";
import { chunkSegments, pieceTokens } from "@yuelu/domain";
import {
  type NoteLang,
  segmentLine,
  type TranslationAnswer,
  translationPrompt,
  ZTranslationAnswer,
} from "./notes-prompts.ts";
import { badAnswer, type NoteRun } from "./notes-run.ts";

/**
 * LLM translation (docs/notes.md "Translation"): piece by piece, every segment translated under its own index,
 * so the translation keeps the transcript's segments and times exactly. No merge step.
 */
export async function makeTranslation(run: NoteRun, segments: Segment[], target: NoteLang): Promise<TranslationNote> {
  const pieces = chunkSegments(segments, pieceTokens("translation", run.contextTokens));
  run.total = pieces.length;
  const texts = new Map<number, string>();
  for (const [index, piece] of pieces.entries()) {
    // a segment with no text has nothing to translate: it is not sent
    const wanted: number[] = [];
    for (let i = piece.from; i <= piece.to; i++) if (segments[i]!.text.trim()) wanted.push(i);
    if (wanted.length === 0) {
      run.skip();
      continue;
    }
    let answer = run.kept<TranslationAnswer>(index, piece);
    if (answer) run.skip();
    else {
      const lines = wanted.map((i) => segmentLine(segments[i]!, i)).join("\n");
      answer = await run.ask(translationPrompt(target, lines), ZTranslationAnswer, {
        check: (a) => checkIndexes(a, wanted),
        piece: { index, ...piece },
      });
    }
    for (const t of answer.translations) texts.set(t.i, t.text.trim());
  }
  return {
    target,
    segments: segments.map((s, index) => ({
      index,
      startTime: s.startTime,
      endTime: s.endTime,
      text: texts.get(index) ?? "",
    })),
  };
}

/** Exactly the indexes asked for, each once: a translation that drops or invents a segment is rejected. */
function checkIndexes(answer: TranslationAnswer, wanted: number[]) {
  const asked = new Set(wanted);
  const got = new Set<number>();
  for (const t of answer.translations) {
    if (!asked.has(t.i)) badAnswer(`the translation has segment ${t.i}, which was not asked for`);
    if (got.has(t.i)) badAnswer(`the translation has segment ${t.i} twice`);
    got.add(t.i);
  }
  const missing = wanted.filter((i) => !got.has(i));
  if (missing.length) {
    badAnswer(`the translation leaves out ${missing.length} segment(s): ${missing.slice(0, 10).join(", ")}`);
  }
}
