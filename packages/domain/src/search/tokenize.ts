/**
 * What the full-text index sees of a text (docs/search.md "Index"). PostgreSQL's parsers know no
 * Chinese word boundaries, so Chinese is tokenised here: the words `Intl.Segmenter` finds, every run
 * of two characters (bigram) of each Han run, and each single character. A Chinese query then
 * matches by word (ranked higher) and by substring (the AND of its bigrams, verified as a true
 * substring by the query). Everything that is not Han goes to PostgreSQL's `english` configuration,
 * which lower-cases and stems it ("running" → "run").
 */

/** Han ideographs (with the compatibility blocks): one run of them is one Chinese "phrase". */
const HAN_RUN = /[\p{Script=Han}]+/gu;
const HAN = /\p{Script=Han}/u;

/**
 * Punctuation becomes a space before PostgreSQL's parser sees the text: otherwise "review.m4a" or
 * "a/b" is one "file" or "host" token, and a search for "review" misses. Query and index both do it.
 */
const PUNCT = /[^\p{L}\p{N}\p{M}'\s]+/gu;
/** The text with its punctuation blanked, keeping every offset (for ts_headline's highlights). */
export const blankPunctuation = (text: string) => text.replace(PUNCT, (p) => " ".repeat(p.length));
const latinOf = (text: string) => text.replace(HAN_RUN, " ").replace(PUNCT, " ");

const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

export interface SearchTokens {
  /** Chinese words from the segmenter (two characters or more), space-separated: weight A */
  words: string;
  /** every two-character run of each Han run, space-separated: weight C */
  grams: string;
  /** every Han character: weight D, so a one-character query finds something */
  chars: string;
  /** the text with its Han characters blanked: for to_tsvector('english', …), weight A */
  latin: string;
}

/** The Han runs of a text, in order. */
export function hanRuns(text: string): string[] {
  return text.normalize("NFKC").match(HAN_RUN) ?? [];
}

/** The bigrams of one Han run ("会议室" → "会议", "议室"); a one-character run has none. */
export function bigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i += 1) out.push(`${chars[i]}${chars[i + 1]}`);
  return out;
}

/** The three-character runs of one Han run (record rows: docs/search.md "Index"). */
export function trigrams(run: string): string[] {
  const chars = [...run];
  const out: string[] = [];
  for (let i = 0; i + 2 < chars.length; i += 1) out.push(`${chars[i]}${chars[i + 1]}${chars[i + 2]}`);
  return out;
}

/**
 * Record rows' lexemes are taken as they are (array_to_tsvector), and these prefixes keep them
 * apart from anything PostgreSQL's parser makes of a text (it never keeps ':'): RECORD_LEXEME is
 * in every record row, so `tokens @@ (q && RECORD_LEXEME)` makes the GIN index itself return
 * record rows only; WORD_PREFIX marks a segmenter word, EXACT_PREFIX an English word as typed.
 */
export const RECORD_LEXEME = "r:";
export const WORD_PREFIX = "w:";
export const EXACT_PREFIX = "p:";

export function tokenize(text: string): SearchTokens {
  const normal = text.normalize("NFKC");
  const words: string[] = [];
  const grams: string[] = [];
  const chars: string[] = [];
  for (const run of normal.match(HAN_RUN) ?? []) {
    for (const { segment, isWordLike } of segmenter.segment(run)) {
      if (isWordLike && [...segment].length >= 2) words.push(segment);
    }
    grams.push(...bigrams(run));
    chars.push(...run);
  }
  return {
    words: words.join(" "),
    grams: grams.join(" "),
    chars: chars.join(" "),
    latin: latinOf(normal),
  };
}

/** A user's query, taken apart for searchRecords (docs/search.md "Query"). */
export interface ParsedQuery {
  /** the Han runs (each must be a true substring of a hit) */
  han: string[];
  /** the Chinese part as tsquery text: each run the AND of its bigrams, or its one character */
  hanQuery: string;
  /** everything else, for plainto_tsquery('english', …) */
  latin: string;
  /** the whole query lower-cased, whitespace collapsed: a hit containing it ranks above the rest */
  phrase: string;
}

/** Lexemes here are only Han characters; quoting keeps the tsquery text literal all the same. */
export const lexeme = (s: string) => `'${s.replace(/['\\]/g, "")}'`;

export function parseQuery(q: string): ParsedQuery {
  const normal = q.normalize("NFKC").trim();
  const han = hanRuns(normal);
  const parts = han.map((run) => {
    const grams = bigrams(run);
    return grams.length === 0 ? lexeme(run) : grams.map(lexeme).join(" & ");
  });
  return {
    han,
    hanQuery: parts.join(" & "),
    latin: latinOf(normal).replace(/\s+/g, " ").trim(),
    phrase: normal.toLowerCase().replace(/\s+/g, " "),
  };
}

export const isHan = (ch: string) => HAN.test(ch);
