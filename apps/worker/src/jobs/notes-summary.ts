import {
  type ActionItem,
  estimateTokens,
  MAX_ABSTRACTS_LENGTH,
  type Segment,
  type SummaryNote,
} from "@yuelu/contracts";
import { chunkSegments, offlineActionItems, pieceTokens } from "@yuelu/domain";
import { parseJsonAnswer, proseOf } from "../engines/llm/index.ts";
import {
  type NoteLang,
  type SummaryAnswer,
  segmentLines,
  summaryMergePrompt,
  summaryPrompt,
  ZSummaryAnswer,
  ZSummaryMergeAnswer,
} from "./notes-prompts.ts";
import { type Asked, batches, type NoteRun } from "./notes-run.ts";

/** a summary read from prose is cut here, so a talkative model cannot flood the merge */
export const PROSE_SUMMARY_CHARS = 3000;

/**
 * LLM summary and to-dos (docs/notes.md "Summary and to-dos"): each piece summarised with the to-dos said in
 * it (map), then the piece summaries written into one (reduce, in rounds when they do not fit one call). A model
 * that answers in prose still gives the summary (its words, `fallback.abstracts: "prose"`); the to-dos are then
 * the offline ones of the whole transcript (`fallback.todos: "offline"`), as a prose answer names none reliably.
 */
export async function makeSummary(run: NoteRun, segments: Segment[], lang: NoteLang): Promise<SummaryNote> {
  const budget = pieceTokens("summary", run.contextTokens);
  const pieces = chunkSegments(segments, budget);
  run.total = pieces.length + (pieces.length > 1 ? 1 : 0);
  const summaries: string[] = [];
  const todos: ActionItem[] = [];
  const seen = new Set<string>();
  let fromProse = false;
  for (const [index, piece] of pieces.entries()) {
    let answer = run.kept<Asked<SummaryAnswer>>(index, piece);
    if (answer) run.skip();
    else {
      answer = await run.ask(summaryPrompt(lang, segmentLines(segments, piece.from, piece.to)), ZSummaryAnswer, {
        piece: { index, ...piece },
        prose: summaryOfReply,
      });
    }
    fromProse ||= answer.fromProse === true;
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
  const merged = summaries.length > 1 ? await reduce(run, lang, summaries, budget) : { summary: summaries[0]! };
  const abstracts = merged.summary.slice(0, MAX_ABSTRACTS_LENGTH);
  if (!fromProse && !merged.fromProse) return { abstracts, todos };
  return {
    abstracts,
    todos: fromProse ? offlineActionItems(segments) : todos,
    fallback: { abstracts: "prose", ...(fromProse ? { todos: "offline" as const } : {}) },
  };
}

/** One summary of the pieces' `summaries`; `fromProse` when a merge of them was read from prose. */
async function reduce(
  run: NoteRun,
  lang: NoteLang,
  summaries: string[],
  budget: number,
): Promise<{ summary: string; fromProse?: boolean }> {
  let list = summaries;
  let fromProse = false;
  for (;;) {
    const groups = batches(list, estimateTokens, budget);
    run.total += groups.filter((g) => g.length > 1).length - 1;
    const merged: string[] = [];
    for (const group of groups) {
      if (group.length === 1) {
        merged.push(group[0]!);
        continue;
      }
      const answer = await run.ask(summaryMergePrompt(lang, group), ZSummaryMergeAnswer, {
        prose: summaryOfReply,
      });
      fromProse ||= answer.fromProse === true;
      merged.push(answer.summary);
    }
    if (groups.length === 1) return { summary: merged[0]!, fromProse };
    list = merged;
    run.total += 1;
  }
}

/**
 * The summary in a reply that is not the asked JSON: the `summary` of a JSON object that has one (its to-dos
 * were what broke), else the reply's prose, trimmed of chatter and bounded. No to-dos either way.
 */
export function summaryOfReply(reply: string): SummaryAnswer | undefined {
  let summary: string | null;
  try {
    summary = parseJsonAnswer(reply, ZSummaryMergeAnswer).summary;
  } catch {
    summary = proseOf(reply, PROSE_SUMMARY_CHARS);
  }
  return summary ? { summary: summary.slice(0, PROSE_SUMMARY_CHARS), todos: [] } : undefined;
}
