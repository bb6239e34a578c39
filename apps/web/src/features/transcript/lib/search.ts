import type { Segment } from "@yuelu/contracts";

export interface Match {
  /** the segment's index */
  segment: number;
  start: number;
  end: number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Every occurrence of `query` in the segments' text, case-insensitive, in reading order. */
export function findMatches(segments: readonly Segment[], query: string): Match[] {
  const q = query.trim();
  if (!q) return [];
  const re = new RegExp(escapeRegExp(q), "giu");
  const out: Match[] = [];
  segments.forEach((s, segment) => {
    for (const m of s.text.matchAll(re)) {
      out.push({ segment, start: m.index, end: m.index + m[0].length });
    }
  });
  return out;
}

export interface TextPart {
  text: string;
  /** the match's position in the whole list, when this part is a match */
  match?: number;
}

/** A segment's text cut into plain parts and matches (for <mark>). */
export function splitByMatches(text: string, matches: readonly Match[], firstIndex: number): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  matches.forEach((m, i) => {
    if (m.start > at) parts.push({ text: text.slice(at, m.start) });
    parts.push({ text: text.slice(m.start, m.end), match: firstIndex + i });
    at = m.end;
  });
  if (at < text.length || parts.length === 0) parts.push({ text: text.slice(at) });
  return parts;
}

/** The matches grouped by segment, with the list position of each group's first match. */
export function matchesBySegment(matches: readonly Match[]): Map<number, { first: number; list: Match[] }> {
  const map = new Map<number, { first: number; list: Match[] }>();
  matches.forEach((m, i) => {
    const group = map.get(m.segment);
    if (group) group.list.push(m);
    else map.set(m.segment, { first: i, list: [m] });
  });
  return map;
}
