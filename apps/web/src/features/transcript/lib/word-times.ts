import { spokenForm, type TimedWord, wordSpans } from "@yuelu/contracts/constants";
import type { TextPart } from "./search.ts";

/** A timed word where it lies in the segment's text as shown (UTF-16 offsets, `to` one past its end). */
export interface TimedSpan {
  from: number;
  to: number;
  /** ms of the record */
  startTime: number;
  endTime: number;
}

const SPOKEN = /[\p{L}\p{N}]/u;
const EDGES = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;

/**
 * Where each timed word of a segment lies in its text, or null when they no longer tell its text (an edit the
 * times do not follow): the page then marks the segment alone, never a wrong word. The worker and the edit
 * rule cut text with wordSpans (one Han character, or a run between spaces, a word), so that is tried first;
 * words cut otherwise (an engine's multi-character tokens) are found in order instead, and must cover every
 * letter and digit of the text between them.
 */
export function alignWords(text: string, words: readonly TimedWord[] | undefined): TimedSpan[] | null {
  if (!words?.length) return null;
  const spans = wordSpans(text);
  if (spans.length === words.length && spans.every((s, i) => spokenForm(s.text) === spokenForm(words[i]!.text))) {
    return spans.map((s, i) => ({
      from: s.from,
      to: s.to,
      startTime: words[i]!.startTime,
      endTime: words[i]!.endTime,
    }));
  }
  return findInOrder(text, words);
}

function findInOrder(text: string, words: readonly TimedWord[]): TimedSpan[] | null {
  // lower case for the search, where that keeps every character where it was
  const lower = text.toLowerCase();
  const hay = lower.length === text.length ? lower : text;
  const out: TimedSpan[] = [];
  let at = 0;
  for (const w of words) {
    const core = w.text.trim().replace(EDGES, "");
    if (!core) continue;
    const needle = hay === text ? core : core.toLowerCase();
    const found = hay.indexOf(needle, at);
    // not there, or something spoken was skipped to reach it: the words are not this text's
    if (found < 0 || SPOKEN.test(text.slice(at, found))) return null;
    out.push({ from: found, to: found + needle.length, startTime: w.startTime, endTime: w.endTime });
    at = found + needle.length;
  }
  return out.length > 0 && !SPOKEN.test(text.slice(at)) ? out : null;
}

/**
 * The word being spoken at `ms`: the last one begun by then (it stays marked through the pause after it),
 * -1 before the first. A binary search: it runs on every animation frame while the record plays.
 */
export function wordAt(spans: readonly TimedSpan[], ms: number): number {
  let lo = 0;
  let hi = spans.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.startTime <= ms) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** A run of a part's text: inside word `word` (an index into the spans), or between words. */
export interface WordPiece {
  text: string;
  word?: number;
}

export interface ShownPart extends TextPart {
  pieces: WordPiece[];
}

/**
 * The text's parts (plain runs and search matches, splitByMatches) cut again where words begin and end, so a
 * word inside a match, or a match inside a word, is both. A word a match boundary crosses is two pieces with
 * the same index.
 */
export function withWords(parts: readonly TextPart[], spans: readonly TimedSpan[] | null): ShownPart[] {
  let offset = 0;
  let k = 0;
  return parts.map((part) => {
    const from = offset;
    const to = from + part.text.length;
    offset = to;
    if (!spans) return { ...part, pieces: [{ text: part.text }] };
    const pieces: WordPiece[] = [];
    for (let at = from; at < to; ) {
      while (k < spans.length && spans[k]!.to <= at) k++;
      const span = spans[k];
      const inside = span !== undefined && span.from <= at;
      const end = Math.min(to, inside ? span.to : (span?.from ?? to));
      pieces.push(
        inside
          ? { text: part.text.slice(at - from, end - from), word: k }
          : { text: part.text.slice(at - from, end - from) },
      );
      at = end;
    }
    return { ...part, pieces: pieces.length > 0 ? pieces : [{ text: part.text }] };
  });
}
