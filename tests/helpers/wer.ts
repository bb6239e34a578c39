/** Lower-case words without punctuation ("don't" keeps its apostrophe; hyphens split words). */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s-]/gu, " ")
    .replace(/-/g, " ")
    .split(/\s+/)
    .map((w) => w.replace(/^'+|'+$/g, ""))
    .filter(Boolean);
}

/**
 * Word error rate: (substitutions + deletions + insertions) / reference words, by Levenshtein
 * distance over normalised words.
 */
export function wordErrorRate(reference: string, hypothesis: string): { wer: number; errors: number; words: number } {
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(hypothesis);
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const cur = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + same);
    }
    prev = cur;
  }
  const errors = prev[hyp.length]!;
  return { wer: ref.length ? errors / ref.length : hyp.length ? 1 : 0, errors, words: ref.length };
}
