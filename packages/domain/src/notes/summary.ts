/**
 * Extractive summary of a transcript: the most informative sentences, in their original order.
 *
 * Sentences end at Chinese 。！？ and English . ! ? (a '.' only before a space, a quote, a Han character
 * or the end, so 3.5 stays whole) and at every segment end. Terms are Chinese character bigrams (a lone
 * Han character counts as itself) and English words of 2+ letters that are not stop words. A term
 * weighs (1 + ln tf) · ln(1 + N / sf) — tf its count in the whole text, sf the sentences holding it, N
 * the sentences — so words the text keeps returning to count, while words in every sentence do not.
 * A sentence scores the sum of its distinct terms' weights over √(distinct terms); sentences with
 * fewer than 3 terms (interjections) are passed over unless nothing else is left. About 20 % of the
 * sentences are kept: at least 3 (or all, when there are fewer), at most 5. A sentence said again (the
 * same words, or nearly: see nearlySame) is kept once, where it scores best — a summary never repeats itself.
 */

const TERMINATORS = new Set(["。", "！", "？", "!", "?"]);
const CLOSERS = /[。！？!?.…"'”’)）」』】]/;
const HAN = /\p{Script=Han}/u;

const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her him his how i if in into is it " +
    "its me my no not of on or our she so than that the their them then there these they this to too up us was we were " +
    "what when where which who why will with would you your just very also about okay ok yeah yes um uh oh like well " +
    "really right got get gonna going go know think mean thing things im dont its thats"
  ).split(" "),
);

export const SUMMARY_MIN_SENTENCES = 3;
export const SUMMARY_MAX_SENTENCES = 5;
export const SUMMARY_RATIO = 0.2;
const MIN_TERMS = 3;

/** Splits one text into sentences, each keeping its end punctuation. */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  const chars = [...text];
  let current = "";
  const push = () => {
    const s = current.trim();
    if (s) out.push(s);
    current = "";
  };
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "\n" || ch === "\r") {
      push();
      continue;
    }
    current += ch;
    const next = chars[i + 1];
    const ends =
      TERMINATORS.has(ch) ||
      (ch === "." && (next === undefined || /\s/.test(next) || HAN.test(next) || /["'”’)）」』]/.test(next)));
    if (ends) {
      while (i + 1 < chars.length && CLOSERS.test(chars[i + 1]!)) current += chars[++i];
      push();
    }
  }
  push();
  return out;
}

/** Chinese character bigrams and English words of a sentence (with repeats). */
export function termsOf(sentence: string): string[] {
  const terms: string[] = [];
  for (const run of sentence.match(/\p{Script=Han}+/gu) ?? []) {
    const chars = [...run];
    if (chars.length === 1) terms.push(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
  }
  for (const word of sentence.toLowerCase().match(/[a-z][a-z0-9]*(?:'[a-z]+)?|\d+[a-z]*/g) ?? []) {
    const w = word.replace(/'/g, "");
    if (w.length >= 2 && !STOP_WORDS.has(w)) terms.push(w);
  }
  return terms;
}

/** How many sentences a summary of `count` sentences keeps. */
export function summaryLength(count: number): number {
  if (count <= SUMMARY_MIN_SENTENCES) return count;
  return Math.min(SUMMARY_MAX_SENTENCES, Math.max(SUMMARY_MIN_SENTENCES, Math.round(count * SUMMARY_RATIO)));
}

/** Letters, digits and Han characters of a sentence, lower-cased: what "the same sentence" compares. */
function normalized(sentence: string): string {
  return sentence.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function bigrams(text: string): Set<string> {
  const chars = [...text];
  if (chars.length < 2) return new Set(chars);
  const out = new Set<string>();
  for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
  return out;
}

/** At or above this likeness (Dice over character pairs) two sentences are one said twice. */
export const NEAR_DUPLICATE = 0.8;

/**
 * Whether two sentences are the same one said again: equal once case, spaces and punctuation are set
 * aside, or sharing nearly all their character pairs ("下周一上线。" / "下周一上线吧！", "The meeting ends at
 * five." / "The meeting ends at five o'clock.").
 */
export function nearlySame(a: string, b: string): boolean {
  const x = normalized(a);
  const y = normalized(b);
  if (x === y) return true;
  if (x === "" || y === "") return false;
  const p = bigrams(x);
  const q = bigrams(y);
  let shared = 0;
  for (const g of p) if (q.has(g)) shared++;
  return (2 * shared) / (p.size + q.size) >= NEAR_DUPLICATE;
}

/** The selected sentences, in their original order; never two that are nearly the same. */
export function summarizeSentences(sentences: string[]): string[] {
  const n = sentences.length;
  if (n === 0) return [];
  const termLists = sentences.map(termsOf);
  const tf = new Map<string, number>();
  const sf = new Map<string, number>();
  for (const terms of termLists) {
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of new Set(terms)) sf.set(t, (sf.get(t) ?? 0) + 1);
  }
  const weight = (t: string) => (1 + Math.log(tf.get(t) ?? 1)) * Math.log(1 + n / (sf.get(t) ?? 1));
  const scored = termLists.map((terms, index) => {
    const distinct = [...new Set(terms)];
    const score = distinct.length ? distinct.reduce((sum, t) => sum + weight(t), 0) / Math.sqrt(distinct.length) : 0;
    return { index, score, short: distinct.length < MIN_TERMS };
  });
  // Informative sentences first; among equals the earlier one.
  scored.sort((a, b) => Number(a.short) - Number(b.short) || b.score - a.score || a.index - b.index);
  // The best first, passing over a sentence the summary already holds (said again, nearly word for word).
  const want = summaryLength(n);
  const picked: number[] = [];
  for (const { index } of scored) {
    if (picked.length === want) break;
    if (picked.some((p) => nearlySame(sentences[p]!, sentences[index]!))) continue;
    picked.push(index);
  }
  return picked.sort((a, b) => a - b).map((i) => sentences[i]!);
}

/** Joins sentences: nothing after a Chinese sentence (Han character or full-width mark), a space otherwise. */
export function joinSentences(sentences: string[]): string {
  let out = "";
  let last = "";
  for (const s of sentences) {
    const cjk = HAN.test(last) || /[\u3000-\u303f\uff00-\uffef]/.test(last);
    out += out === "" || cjk ? s : ` ${s}`;
    last = [...s].at(-1) ?? last;
  }
  return out;
}

/** The summary of a transcript's segments ('' when it has no text). */
export function summarize(texts: string[]): string {
  const sentences = texts.flatMap(splitSentences);
  return joinSentences(summarizeSentences(sentences));
}
