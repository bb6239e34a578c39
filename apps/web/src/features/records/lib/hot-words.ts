import { MAX_HOT_WORD_LENGTH, MAX_HOT_WORDS } from "@yuelu/contracts/constants";

/** docs/records-api.md: ≤ 200 hot words, each 1–50 characters, de-duplicated (the contracts' limits). */
export type HotWordProblem = "tooLong" | "tooMany";

/** Adds the words typed (several may be separated by commas or new lines), or says why not. */
export function addHotWords(list: string[], input: string): { list: string[] } | { problem: HotWordProblem } {
  const words = input
    .split(/[,，、\n]/)
    .map((w) => w.trim())
    .filter(Boolean);
  if (words.some((w) => [...w].length > MAX_HOT_WORD_LENGTH)) return { problem: "tooLong" };
  const next = [...new Set([...list, ...words])];
  if (next.length > MAX_HOT_WORDS) return { problem: "tooMany" };
  return { list: next };
}
