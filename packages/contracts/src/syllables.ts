/**
 * Lyrics into sung syllables, one per melody note ("AI sings for you", docs/voice.md): the API checks
 * a request with it, the worker sings with it and the web counts with it, so all three agree.
 *
 * Chinese: every Han character is a syllable; a run of Latin letters or digits (an English word, a number
 * written in figures) is one; punctuation and spaces are dropped. English: each word is split at its vowel
 * groups with the usual spelling rules (a silent final e, "-le" after a consonant sung as a syllable,
 * "-ed" only after t or d, "-es" only after a sibilant; "y" a vowel after a consonant). The pieces are
 * spelled so that eSpeak reads them as the syllable ("twin" + "kle", "sing" + "ing"); the count is what the
 * song needs, and it follows how the built-in tunes' lyrics are sung.
 */

export function splitLyrics(lyrics: string, language: "zh" | "en"): string[] {
  const text = lyrics.normalize("NFKC");
  if (language === "zh") return text.match(/\p{Script=Han}|[A-Za-z0-9]+(?:'[A-Za-z]+)*/gu) ?? [];
  const words = text.match(/[A-Za-z]+(?:'[A-Za-z]+)*|[0-9]+/g) ?? [];
  return words.flatMap(syllablesOfWord);
}

const VOWELS = new Set(["a", "e", "i", "o", "u"]);
/** consonant pairs that stay together, at the start of the next syllable (bro-ther, li-bra-ry) */
const ONSET_PAIRS = new Set("th ch sh ph wh bl br cl cr dr fl fr gl gr pl pr tr wr".split(" "));
/** consonant pairs that stay together, at the end of the previous syllable (pick-et, sing-ing, neigh-bour) */
const CODA_PAIRS = new Set(["ck", "ng", "gh"]);
const SIBILANT_ENDINGS = ["s", "x", "z", "ch", "sh", "ce", "ge", "se", "ze"];

function isVowel(word: string, i: number): boolean {
  const c = word[i]!;
  if (VOWELS.has(c)) return true;
  // y is a vowel after a consonant (my, happy, gym), a consonant at the start or after a vowel (yes, day)
  return c === "y" && i > 0 && !VOWELS.has(word[i - 1]!);
}

function syllablesOfWord(original: string): string[] {
  if (/^[0-9]+$/.test(original)) return [original];
  const word = original.toLowerCase().replace(/'/g, "");
  // vowel groups as [start, end)
  const groups: [number, number][] = [];
  for (let i = 0; i < word.length; i++) {
    if (!isVowel(word, i)) continue;
    const last = groups[groups.length - 1];
    if (last && last[1] === i) last[1] = i + 1;
    else groups.push([i, i + 1]);
  }
  if (groups.length <= 1) return [original];
  const end = word.length;
  const lastGroup = groups[groups.length - 1]!;
  const before = (n: number) => word.slice(0, end - n);
  const silentFinal =
    // a final lone "e": silent, unless it is "-le" after a consonant (lit-tle, ta-ble)
    (lastGroup[0] === end - 1 && word[end - 1] === "e" && !(word.endsWith("le") && !isVowel(word, end - 3))) ||
    // "-ed": a syllable only after t or d (want-ed, but asked)
    (lastGroup[0] === end - 2 && word.endsWith("ed") && !/[td]$/.test(before(2))) ||
    // "-es": a syllable only after a sibilant (wish-es, pla-ces, but times)
    (lastGroup[0] === end - 2 &&
      word.endsWith("es") &&
      !SIBILANT_ENDINGS.some((s) => before(2).endsWith(s) || (s.endsWith("e") && before(1).endsWith(s))));
  if (silentFinal) groups.pop();
  if (groups.length <= 1) return [original];

  // Cut points between consecutive vowel groups: one consonant goes to the next syllable (be-fore),
  // two or more are split after the first (twin-kle) unless they form a pair that stays together;
  // a final "-le" takes the consonant before it (peo-ple, ta-ble).
  const cuts: number[] = [];
  for (let g = 0; g + 1 < groups.length; g++) {
    const from = groups[g]![1];
    const to = groups[g + 1]![0];
    const consonants = word.slice(from, to);
    let cut: number;
    if (consonants.length <= 1) cut = from;
    else if (to === end - 1 && word.endsWith("le")) cut = to - 2;
    else if (CODA_PAIRS.has(consonants.slice(0, 2))) cut = from + 2;
    else if (consonants.length === 2 && ONSET_PAIRS.has(consonants)) cut = from;
    else cut = from + 1;
    cuts.push(Math.max(from, Math.min(cut, to)));
  }
  // Map cuts in the apostrophe-free word back onto the original spelling.
  const map: number[] = [];
  for (let i = 0; i < original.length; i++) if (original[i] !== "'") map.push(i);
  const pieces: string[] = [];
  let start = 0;
  for (const cut of cuts) {
    const at = map[cut] ?? original.length;
    pieces.push(original.slice(start, at));
    start = at;
  }
  pieces.push(original.slice(start));
  return pieces.filter((p) => p.length > 0);
}

/** What the notes the lyrics leave over are sung on. */
export const LYRICS_FILLER = { zh: "啦", en: "la" } as const;

/**
 * One syllable per note: more syllables than notes cannot be sung (null: the API answers 10002);
 * fewer are fine, the remaining notes are sung on LYRICS_FILLER.
 */
export function fitLyrics(syllables: readonly string[], notes: number, language: "zh" | "en"): string[] | null {
  if (syllables.length > notes) return null;
  return [...syllables, ...Array.from({ length: notes - syllables.length }, () => LYRICS_FILLER[language])];
}
