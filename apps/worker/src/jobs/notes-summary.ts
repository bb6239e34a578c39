import {
  type ActionItem,
  estimateTokens,
  MAX_ABSTRACTS_LENGTH,
  type Segment,
  type SummaryNote,
} from "@yuelu/contracts";
import { chunkSegments, pieceTokens } from "@yuelu/domain";
import {
  type NoteLang,
  type SummaryAnswer,
  segmentLines,
  summaryMergePrompt,
  summaryPrompt,
  ZSummaryAnswer,
  ZSummaryMergeAnswer,
} from "./notes-prompts.ts";
import { batches, type NoteRun } from "./notes-run.ts";

/**
 * LLM summary and to-dos (docs/notes.md "Summary and to-dos"): each piece summarised with the to-dos said in
 * it (map), then the piece summaries written into one (reduce, in rounds when they do not fit one call).
 */
export async function makeSummary(run: NoteRun, segments: Segment[], lang: NoteLang): Promise<SummaryNote> {
  const budget = pieceTokens("summary", run.contextTokens);
  const pieces = chunkSegments(segments, budget);
  run.total = pieces.length + (pieces.length > 1 ? 1 : 0);
  const summaries: string[] = [];
  const todos: ActionItem[] = [];
  const seen = new Set<string>();
  for (const [index, piece] of pieces.entries()) {
    let answer = run.kept<SummaryAnswer>(index, piece);
    if (answer) run.skip();
    else {
      answer = await run.ask(summaryPrompt(lang, segmentLines(segments, piece.from, piece.to)), ZSummaryAnswer, {
        piece: { index, ...piece },
      });
    }
    summaries.push(answer.summary);
    for (const todo of answer.todos) {
      // a to-do must point at a segment the model was shown; one said twice (or in two pieces) is kept once
      if (todo.segment < piece.from || todo.segment > piece.to) continue;
      const key = todo.text.toLowerCase().replace(/[\s\p{P}]+/gu, "");
      if (seen.has(key)) continue;
      seen.add(key);
      todos.push({
        text: todo.text,
        owner: todo.owner,
        due: todo.due,
        segmentIndex: todo.segment,
        startTime: segments[todo.segment]!.startTime,
      });
    }
  }
  const summary = summaries.length > 1 ? await reduce(run, lang, summaries, budget) : summaries[0]!;
  return { abstracts: summary.slice(0, MAX_ABSTRACTS_LENGTH), todos };
}

async function reduce(run: NoteRun, lang: NoteLang, summaries: string[], budget: number): Promise<string> {
  let list = summaries;
  for (;;) {
    const groups = batches(list, estimateTokens, budget);
    run.total += groups.filter((g) => g.length > 1).length - 1;
    const merged: string[] = [];
    for (const group of groups) {
      merged.push(
        group.length > 1 ? (await run.ask(summaryMergePrompt(lang, group), ZSummaryMergeAnswer)).summary : group[0]!,
      );
    }
    if (groups.length === 1) return merged[0]!;
    list = merged;
    run.total += 1;
  }
}
