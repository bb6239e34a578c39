import type { Segment } from "@yuelu/contracts";
import { wordSpans } from "@yuelu/contracts/constants";

/** One end of a text selection in the transcript: a segment and a character offset in its text. */
export interface TextPoint {
  index: number;
  offset: number;
}

export interface ClipRange {
  /** ms of the record: the first selected word's start, the last one's end */
  startTime: number;
  endTime: number;
  /** the selected words, as they read */
  text: string;
}

/**
 * The stretch of the record that selected text covers, cut at its words' boundaries (docs/clips.md): every
 * word the selection touches, from the first word's start to the last word's end. A segment without word
 * times (made before they were measured) counts whole. Null when the selection holds no word.
 */
export function clipRange(segments: readonly Segment[], from: TextPoint, to: TextPoint): ClipRange | null {
  const [a, b] =
    from.index < to.index || (from.index === to.index && from.offset <= to.offset) ? [from, to] : [to, from];
  let startTime = Number.POSITIVE_INFINITY;
  let endTime = Number.NEGATIVE_INFINITY;
  const pieces: string[] = [];
  for (let i = a.index; i <= b.index; i++) {
    const segment = segments[i];
    if (!segment) continue;
    const lo = i === a.index ? a.offset : 0;
    const hi = i === b.index ? b.offset : segment.text.length;
    const spans = wordSpans(segment.text);
    const picked = spans.map((span, k) => ({ span, k })).filter(({ span }) => span.to > lo && span.from < hi);
    if (picked.length === 0) continue;
    const words = segment.words;
    const timed = words && words.length === spans.length;
    const first = picked[0]!;
    const last = picked[picked.length - 1]!;
    startTime = Math.min(startTime, timed ? words[first.k]!.startTime : segment.startTime);
    endTime = Math.max(endTime, timed ? words[last.k]!.endTime : segment.endTime);
    pieces.push(segment.text.slice(first.span.from, last.span.to));
  }
  if (!Number.isFinite(startTime) || endTime <= startTime) return null;
  return { startTime, endTime, text: pieces.join(" ").trim() };
}
