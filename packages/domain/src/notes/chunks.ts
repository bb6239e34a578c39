import { estimateTokens, type NoteKind, type Segment } from "@yuelu/contracts";

/**
 * Cutting a transcript into pieces that fit the model (docs/notes.md "Map-reduce"). Each piece is a run of
 * whole segments whose text, as sent (one line per segment: `[index] speaker: text`), takes at most
 * `pieceTokens`; a single segment longer than that is a piece of its own (it is never split mid-sentence).
 */

/** Tokens kept for the instructions and for the answer of one call. */
export const PROMPT_TOKENS = 600;

/** What one segment costs as a line of a prompt. */
export function segmentLineTokens(segment: Pick<Segment, "spkName" | "text">, index: number): number {
  return estimateTokens(`[${index}] ${segment.spkName}: ${segment.text}\n`);
}

/**
 * How many tokens of transcript one call may carry: the context minus the instructions, minus room for the
 * answer. A translation answers about as long as it reads, so it takes half of what is left.
 */
export function pieceTokens(kind: NoteKind, contextTokens: number): number {
  const room = Math.max(256, contextTokens - PROMPT_TOKENS);
  return kind === "translation" ? Math.floor(room / 2.2) : Math.floor(room * 0.75);
}

/** [from, to] index ranges (inclusive) of consecutive segments, each within `budget` tokens. */
export function chunkSegments(
  segments: Pick<Segment, "spkName" | "text">[],
  budget: number,
): { from: number; to: number; tokens: number }[] {
  const pieces: { from: number; to: number; tokens: number }[] = [];
  let from = 0;
  let tokens = 0;
  segments.forEach((segment, i) => {
    const cost = segmentLineTokens(segment, i);
    if (i > from && tokens + cost > budget) {
      pieces.push({ from, to: i - 1, tokens });
      from = i;
      tokens = 0;
    }
    tokens += cost;
  });
  if (segments.length > from) pieces.push({ from, to: segments.length - 1, tokens });
  return pieces;
}

/**
 * The tokens a note is expected to cost, reserved from the day's budget when it is asked for: every piece
 * sent once with its instructions, the answers (a translation's as long as its text, the others' a fifth),
 * and for more than one piece a merging call over the pieces' answers.
 */
export function estimateNoteTokens(kind: NoteKind, transcriptTokens: number, pieces: number): number {
  const answers = kind === "translation" ? transcriptTokens : Math.ceil(transcriptTokens / 5) + 200 * pieces;
  const merge = pieces > 1 && kind !== "translation" ? PROMPT_TOKENS + answers : 0;
  return transcriptTokens + PROMPT_TOKENS * pieces + answers + merge;
}
