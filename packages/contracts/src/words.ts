/**
 * A transcript's timed words (issue 45, docs/records-api.md "Word times"), zod-free: the worker, the
 * domain's edit rule, the exports and the web cut a segment's text into the same words. Each Han
 * character is a word; elsewhere a word is a run of characters between spaces (a Latin run inside
 * Chinese is one word: "用iPhone拍" → 用 · iPhone · 拍). Punctuation rides with the word before it
 * ("好，" · "country,"), or, at the start of the text, with the word after it ("“Hello").
 */

export interface WordSpan {
  text: string;
  /** the word's first character in the segment's text (UTF-16 index) */
  from: number;
  /** one past its last character */
  to: number;
}

const UNIT = /\p{Script=Han}|[^\s\p{Script=Han}]+/gu;
const SPOKEN = /[\p{L}\p{N}]/u;

/** The words of `text` with where each lies in it. */
export function wordSpans(text: string): WordSpan[] {
  const spans: WordSpan[] = [];
  let leading: { from: number } | undefined;
  for (const m of text.matchAll(UNIT)) {
    const from = m.index;
    const to = from + m[0].length;
    if (!SPOKEN.test(m[0])) {
      // punctuation alone: onto the word before it, else held for the next one
      const last = spans[spans.length - 1];
      if (last) last.to = to;
      else leading ??= { from };
      continue;
    }
    // punctuation right after the word before ("好，hello"): the word before's
    const last = spans[spans.length - 1];
    const lead = /^[^\p{L}\p{N}]*/u.exec(m[0])![0].length;
    if (lead > 0 && last && last.to === from && !leading) {
      last.to = from + lead;
      spans.push({ text: "", from: from + lead, to });
      continue;
    }
    spans.push({ text: "", from: leading?.from ?? from, to });
    leading = undefined;
  }
  const last = spans[spans.length - 1];
  if (leading && last) last.to = text.length;
  for (const s of spans) s.text = text.slice(s.from, s.to);
  return spans;
}

/** The words of `text` (wordSpans' texts). */
export function wordTokens(text: string): string[] {
  return wordSpans(text).map((s) => s.text);
}

/** What a word says, for comparing two versions of it: letters and digits only, lower case. */
export function spokenForm(word: string): string {
  return word
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

export interface TimedWord {
  text: string;
  startTime: number;
  endTime: number;
}

/**
 * The words of `text` timed from `before` (the words of the segment as it was, with their times),
 * within [startTime, endTime]: a word the edit did not change (the same spoken form, in order — the
 * longest common run) keeps its times; words the edit added or changed share the time between the
 * kept words around them, by their length. Punctuation changes nothing (it is not spoken).
 */
export function carryWordTimes(
  before: readonly TimedWord[],
  text: string,
  span: { startTime: number; endTime: number },
): TimedWord[] {
  const words = wordTokens(text);
  if (words.length === 0) return [];
  const a = before.map((w) => spokenForm(w.text));
  const b = words.map(spokenForm);
  // longest common subsequence of the spoken forms
  const n = a.length;
  const m = b.length;
  const table = new Uint32Array((n + 1) * (m + 1));
  const at = (i: number, j: number) => i * (m + 1) + j;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[at(i, j)] =
        a[i] === b[j] && a[i] !== ""
          ? table[at(i + 1, j + 1)]! + 1
          : Math.max(table[at(i + 1, j)]!, table[at(i, j + 1)]!);
    }
  }
  const kept: (TimedWord | undefined)[] = new Array(m).fill(undefined);
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j] && a[i] !== "") {
      kept[j] = before[i];
      i++;
      j++;
    } else if (table[at(i + 1, j)]! >= table[at(i, j + 1)]!) i++;
    else j++;
  }
  const out: TimedWord[] = [];
  for (let j = 0; j < m; ) {
    const k = kept[j];
    if (k) {
      out.push({ text: words[j]!, startTime: k.startTime, endTime: k.endTime });
      j++;
      continue;
    }
    // a run of new words, between the kept word before it and the one after it
    let end = j;
    while (end < m && !kept[end]) end++;
    const from = Math.max(span.startTime, out[out.length - 1]?.endTime ?? span.startTime);
    const to = Math.max(from, Math.min(span.endTime, kept[end]?.startTime ?? span.endTime));
    const weights = words.slice(j, end).map((w) => Math.max(1, [...spokenForm(w)].length));
    const total = weights.reduce((s, w) => s + w, 0);
    let t = from;
    for (let x = j; x < end; x++) {
      const length = ((to - from) * weights[x - j]!) / total;
      out.push({ text: words[x]!, startTime: Math.round(t), endTime: Math.round(t + length) });
      t += length;
    }
    j = end;
  }
  return out;
}
