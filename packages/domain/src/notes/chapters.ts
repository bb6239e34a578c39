import type { Chapter } from "@yuelu/contracts";
import { termsOf } from "./summary.ts";

/**
 * Offline chapters (issue 24): a transcript cut where its topic changes, found by lexical cohesion —
 * TextTiling (Hearst 1997) over transcript segments. Terms are Chinese character bigrams and English content words
 * (summary.ts `termsOf`). At every gap between two segments, the terms of the WINDOW segments before and after
 * are compared (cosine); a topic change is a deep valley of that similarity: depth = (highest similarity
 * reached going left − here) + (highest going right − here). A change of speaker and a long pause deepen a
 * valley a little. Gaps deeper than mean − σ/2 (Hearst's cut-off) become boundaries, deepest first, keeping
 * every chapter at least MIN_SEGMENTS segments and MIN_MS long, and at most one chapter per TARGET_MS of audio
 * (plus one). Each chapter's title is its key terms — frequent in it, rare in the rest — and its gist the
 * segment that shares the most weighted terms with the chapter (its most central sentence), plus the next best.
 */

export interface ChapterSegment {
  /** ms */
  startTime: number;
  endTime: number;
  text: string;
  spkName?: string;
}

/** Segments on each side of a gap that are compared. */
const WINDOW = 8;
/** stretches of the transcript over which a term's spread is measured */
const BLOCKS = 10;
const MIN_SEGMENTS = 3;
const MIN_MS = 45_000;
/** about one chapter per this much audio, at most */
const TARGET_MS = 3 * 60_000;
const SPEAKER_BONUS = 0.05;
const PAUSE_MS = 2_500;
const PAUSE_BONUS = 0.08;
const TITLE_TERMS = 3;

type Vector = Map<string, number>;

function add(into: Vector, terms: string[]) {
  for (const t of terms) into.set(t, (into.get(t) ?? 0) + 1);
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Similarity across each gap g (between segment g-1 and g), g = 1..n-1. Terms are weighted by their inverse
 * segment frequency: words said all through the meeting ("I think", "right now") tie every window to every other
 * and hide the topic words.
 */
export function gapSimilarities(termLists: string[][], window = WINDOW): number[] {
  const n = termLists.length;
  const df = new Map<string, number>();
  for (const terms of termLists) for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  // spread: in how many of BLOCKS equal stretches of the transcript a term is said; a term said all along
  // ("我觉得", "一下", "right now") belongs to no topic, however rare it is per segment
  const blocks = Math.min(BLOCKS, n);
  const seen = new Map<string, Set<number>>();
  termLists.forEach((terms, i) => {
    const block = Math.floor((i * blocks) / n);
    for (const t of terms) {
      const at = seen.get(t) ?? new Set<number>();
      at.add(block);
      seen.set(t, at);
    }
  });
  const idf = (t: string) =>
    Math.log(n / (df.get(t) ?? 1)) * Math.max(0, 1 - ((seen.get(t)?.size ?? 1) - 1) / Math.max(1, blocks - 1));
  const sims: number[] = [];
  for (let g = 1; g < termLists.length; g++) {
    const left: Vector = new Map();
    const right: Vector = new Map();
    for (let i = Math.max(0, g - window); i < g; i++) add(left, termLists[i]!);
    for (let i = g; i < Math.min(termLists.length, g + window); i++) add(right, termLists[i]!);
    for (const side of [left, right]) for (const [t, count] of side) side.set(t, count * idf(t));
    sims.push(cosine(left, right));
  }
  return sims;
}

/** Moving average over three gaps (Hearst smooths the curve so single odd sentences make no valley). */
export function smooth(values: number[]): number[] {
  return values.map((_, i) => {
    const near = values.slice(Math.max(0, i - 1), i + 2);
    return near.reduce((a, b) => a + b, 0) / near.length;
  });
}

/** Hearst's depth score of each gap. */
export function depthScores(sims: number[]): number[] {
  return sims.map((s, i) => {
    let left = s;
    for (let j = i - 1; j >= 0 && sims[j]! >= left; j--) left = sims[j]!;
    let right = s;
    for (let j = i + 1; j < sims.length && sims[j]! >= right; j++) right = sims[j]!;
    return left - s + (right - s);
  });
}

/** The segment indexes where a chapter begins (0 first), in order. */
export function chapterStarts(segments: ChapterSegment[]): number[] {
  const n = segments.length;
  if (n < MIN_SEGMENTS * 2) return [0];
  const termLists = segments.map((s) => termsOf(s.text));
  const depths = depthScores(smooth(gapSimilarities(termLists))).map((d, i) => {
    const before = segments[i]!;
    const after = segments[i + 1]!;
    let bonus = 0;
    if (before.spkName && after.spkName && before.spkName !== after.spkName) bonus += SPEAKER_BONUS;
    if (after.startTime - before.endTime >= PAUSE_MS) bonus += PAUSE_BONUS;
    return { gap: i + 1, depth: d + bonus };
  });
  const mean = depths.reduce((s, d) => s + d.depth, 0) / depths.length;
  const sd = Math.sqrt(depths.reduce((s, d) => s + (d.depth - mean) ** 2, 0) / depths.length);
  const cutoff = mean - sd / 2;
  const total = segments[n - 1]!.endTime - segments[0]!.startTime;
  const most = Math.max(1, Math.floor(total / TARGET_MS) + 1);

  const starts = [0];
  const fits = (gap: number) => {
    const sorted = [...starts, gap].sort((a, b) => a - b);
    return sorted.every((start, k) => {
      const end = k + 1 < sorted.length ? sorted[k + 1]! : n;
      const long = segments[end - 1]!.endTime - segments[start]!.startTime;
      return end - start >= MIN_SEGMENTS && long >= MIN_MS;
    });
  };
  const candidates = depths.filter((d) => d.depth > 0 && d.depth > cutoff).sort((a, b) => b.depth - a.depth);
  for (const { gap } of candidates) {
    if (starts.length >= most) break;
    if (fits(gap)) starts.push(gap);
  }
  return starts.sort((a, b) => a - b);
}

/** Chapters of a transcript, each with its time range, a title of key terms and a two-sentence gist. */
export function offlineChapters(segments: ChapterSegment[]): Chapter[] {
  // empty segments take no part; `from`/`to` still name places in the whole transcript
  const places = segments.flatMap((s, i) => (s.text.trim() === "" ? [] : [i]));
  const kept = places.map((i) => segments[i]!);
  if (kept.length === 0) return [];
  const starts = chapterStarts(kept);
  const parts = starts.map((start, k) => kept.slice(start, starts[k + 1] ?? kept.length));
  const partTerms = parts.map((part) => part.map((s) => termsOf(s.text)));
  // in how many chapters each term appears: a title term is frequent here and rare elsewhere
  const df = new Map<string, number>();
  for (const lists of partTerms) for (const t of new Set(lists.flat())) df.set(t, (df.get(t) ?? 0) + 1);

  // title words: whole words (Intl.Segmenter), frequent in the chapter and rare in the others
  const partWords = parts.map((part) => part.flatMap((seg) => titleWords(seg.text)));
  const wordDf = new Map<string, number>();
  for (const words of partWords) for (const w of new Set(words)) wordDf.set(w, (wordDf.get(w) ?? 0) + 1);

  let offset = 0;
  return parts.map((part, k) => {
    const from = offset;
    offset += part.length;
    const tf: Vector = new Map();
    for (const terms of partTerms[k]!) add(tf, terms);
    const weight = (t: string) => (1 + Math.log(tf.get(t) ?? 1)) * Math.log(1 + parts.length / (df.get(t) ?? 1));
    const central = partTerms[k]!.map((terms, i) => ({
      i,
      score: [...new Set(terms)].reduce((s, t) => s + weight(t), 0),
    }))
      .sort((a, b) => b.score - a.score || a.i - b.i)
      .slice(0, 2)
      .sort((a, b) => a.i - b.i)
      .map(({ i }) => part[i]!.text.trim());
    return {
      from: places[from]!,
      to: places[offset - 1]!,
      startTime: part[0]!.startTime,
      endTime: part[part.length - 1]!.endTime,
      title: titleOf(partWords[k]!, wordDf, parts.length) || part[0]!.text.trim().slice(0, 20),
      gist: central,
    };
  });
}

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });
/** words too common to name a chapter, beyond the summary's stop words (which termsOf drops) */
const STOP = new Set("the and that this with have from they will what when there were been about would".split(" "));

/** Candidate title words of a text: Chinese words of 2+ characters, English words of 3+ letters not stop words. */
export function titleWords(text: string): string[] {
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (!isWordLike) continue;
    const han = /^\p{Script=Han}+$/u.test(segment);
    if (han) {
      if ([...segment].length >= 2) out.push(segment);
    } else if (/^[A-Za-z][A-Za-z'-]{2,}$/.test(segment)) {
      const word = segment.toLowerCase();
      // termsOf drops the summary's stop words (it answers nothing for them)
      if (termsOf(word).length > 0 && !STOP.has(word)) out.push(word);
    }
  }
  return out;
}

/** Up to TITLE_TERMS key words, tf·idf over the chapters, joined as a title ("、" between Chinese words). */
function titleOf(words: string[], df: Map<string, number>, chapters: number): string {
  const tf = new Map<string, number>();
  for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
  const score = (w: string) => (1 + Math.log(tf.get(w)!)) * Math.log(1 + chapters / (df.get(w) ?? 1));
  const picked = [...tf.keys()]
    .filter((w) => tf.get(w)! >= 2 || words.length < 12)
    .sort((a, b) => score(b) - score(a) || a.localeCompare(b))
    .slice(0, TITLE_TERMS);
  return picked.every((w) => /\p{Script=Han}/u.test(w)) ? picked.join("、") : picked.join(", ");
}
