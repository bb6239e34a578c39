import type { Segment, TranslationNote } from "@yuelu/contracts";
import { chunkSegments, pieceTokens } from "@yuelu/domain";
import { proseLines, replyLines } from "../engines/llm/index.ts";
import {
  type NoteLang,
  segmentLine,
  type TranslationAnswer,
  translationPrompt,
  ZTranslationAnswer,
} from "./notes-prompts.ts";
import { type Asked, badAnswer, type NoteRun } from "./notes-run.ts";

/**
 * LLM translation (docs/notes.md "Translation"): piece by piece, every segment translated under its own index,
 * so the translation keeps the transcript's segments and times exactly. No merge step. A piece answered in plain
 * lines, one per segment sent, is read line by line (`fallback.segments: "prose"`); anything else fails.
 */
export async function makeTranslation(run: NoteRun, segments: Segment[], target: NoteLang): Promise<TranslationNote> {
  const pieces = chunkSegments(segments, pieceTokens("translation", run.contextTokens));
  run.total = pieces.length;
  const texts = new Map<number, string>();
  let fromProse = false;
  for (const [index, piece] of pieces.entries()) {
    // a segment with no text has nothing to translate: it is not sent
    const wanted: number[] = [];
    for (let i = piece.from; i <= piece.to; i++) if (segments[i]!.text.trim()) wanted.push(i);
    if (wanted.length === 0) {
      run.skip();
      continue;
    }
    let answer = run.kept<Asked<TranslationAnswer>>(index, piece);
    if (answer) run.skip();
    else {
      const lines = wanted.map((i) => segmentLine(segments[i]!, i)).join("\n");
      answer = await run.ask(translationPrompt(target, lines), ZTranslationAnswer, {
        check: (a) => checkIndexes(a, wanted),
        piece: { index, ...piece },
        prose: (reply) => translationOfReply(reply, wanted, segments),
      });
    }
    fromProse ||= answer.fromProse === true;
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
    ...(fromProse ? { fallback: { segments: "prose" as const } } : {}),
  };
}

/**
 * A piece's translation from a reply that is not the asked JSON: lines marked `[i]` with exactly the indexes
 * sent, else exactly one line per segment sent, in order, once the chatter around them is cut.
 * Lines merged or split are not read: which text belongs to which segment would be a guess.
 */
export function translationOfReply(
  reply: string,
  wanted: number[],
  segments: Pick<Segment, "spkName">[],
): TranslationAnswer | undefined {
  const lines = replyLines(reply);
  const marked = lines.flatMap((line) => {
    const m = /^\[(\d+)\]\s*(.*)$/.exec(line);
    return m ? [{ i: Number(m[1]), text: m[2]! }] : [];
  });
  let pairs: { i: number; text: string }[] | undefined;
  if (marked.length === wanted.length && marked.every((m, k) => m.i === wanted[k])) pairs = marked;
  else {
    const inOrder = proseLines(reply);
    if (inOrder.length === wanted.length) {
      pairs = inOrder.map((line, k) => ({ i: wanted[k]!, text: line.replace(/^\[\d+\]\s*/, "") }));
    }
  }
  if (!pairs || pairs.some((p) => p.text.trim() === "")) return undefined;
  return { translations: pairs.map(({ i, text }) => ({ i, text: withoutSpeaker(text, segments[i]?.spkName) })) };
}

/** "Ann: Hello" → "Hello" when Ann spoke the segment (the prompt's line form, echoed back). */
function withoutSpeaker(text: string, speaker: string | undefined): string {
  if (!speaker) return text;
  for (const colon of [": ", "："])
    if (text.startsWith(speaker + colon)) return text.slice(speaker.length + colon.length);
  return text;
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
