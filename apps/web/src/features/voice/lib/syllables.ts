import type { Lang } from "@yuelu/contracts/constants";
import { LYRICS_FILLER, splitLyrics } from "@yuelu/contracts/constants";

/**
 * Lyrics as the server sings them: the same splitting function (contracts/syllables.ts), so the
 * page's "syllables n / notes m" and the piano roll's words are what the song will be.
 */
export function splitSyllables(lyrics: string, lang: Lang): string[] {
  return splitLyrics(lyrics, lang);
}

export function countSyllables(lyrics: string, lang: Lang): number {
  return splitLyrics(lyrics, lang).length;
}

/** What each note sings: the syllables, and on the notes left over the filler the server sings ("啦" / "la"). */
export function fitSyllables(
  syllables: readonly string[],
  notes: number,
  lang: Lang,
): { text: string; filler: boolean }[] {
  return Array.from({ length: notes }, (_, i) =>
    i < syllables.length ? { text: syllables[i]!, filler: false } : { text: LYRICS_FILLER[lang], filler: true },
  );
}
