/**
 * Hands the text of one decoded stretch of audio back to the utterances it was made of.
 *
 * Moonshine-tiny hears a short utterance far better with its neighbours around it: on whisper.cpp's
 * JFK sample, decoding each utterance alone lost "ask not" in a reverberant room and turned "ask" into
 * "as" when fast or over 12 kbit/s Opus, while the same audio decoded as one stretch was word-perfect
 * (bench/robustness.mjs). But the transcript's segments — and the speakers diarization gives them — must
 * stay one per utterance where they can. So neighbouring utterances are decoded together and the text is
 * cut back into them here, at the sentence ends that lie where the utterances' speaking time says their
 * boundaries fall (speech time follows syllables more than words).
 */

/** How far (as a share of the whole text's syllables) from an utterance boundary a sentence end may lie to be cut at. */
const SENTENCE_REACH = 0.12;

/** Syllables of an English (or any alphabetic) word: its vowel groups, at least one; CJK: one per character. */
export function syllables(word: string): number {
  const cjk = word.match(/[\u3400-\u9fff\uf900-\ufaff]/gu)?.length ?? 0;
  const latin = word
    .toLowerCase()
    .replace(/[^a-z]/g, "")
    .replace(/e$/, "")
    .match(/[aeiouy]+/g)?.length;
  return cjk + (latin ?? 0) || 1;
}

/** Consecutive utterances `first`..`last` (indexes) and the text they were given. */
export interface TextPiece {
  first: number;
  last: number;
  text: string;
}

/**
 * Cuts `text` back into the utterances it was heard from (the i-th speaking for `durations[i]` ms), in
 * order, whole words, nothing lost or repeated. A cut is made only at a sentence end lying near where
 * the utterances' speaking time says the boundary falls; utterances whose boundary has none near keep
 * one piece together, so no sentence is broken in two (a turn between speakers almost always ends one).
 * Pieces with no words are left out.
 */
export function splitAtSentences(text: string, durations: readonly number[]): TextPiece[] {
  const n = durations.length;
  const words = text.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  if (n <= 1) return [{ first: 0, last: Math.max(0, n - 1), text: words.join(" ") }];
  // a word takes a little time of its own (onsets, codas, the gaps between words) beyond its syllables
  const weights = words.map((w) => syllables(w) + 0.5);
  const total = weights.reduce((a, b) => a + b, 0);
  const before = [0]; // before[k]: share of the speaking before word k
  for (const w of weights) before.push(before[before.length - 1]! + w / total);
  const spoken = durations.map((d) => Math.max(0, d));
  const all = spoken.reduce((a, b) => a + b, 0) || 1;
  const sentenceEnds: number[] = [];
  for (let k = 1; k < words.length; k++) if (/[.!?。！？]["')\]]?$/.test(words[k - 1]!)) sentenceEnds.push(k);

  const pieces: TextPiece[] = [];
  let share = 0;
  let first = 0;
  let from = 0;
  for (let i = 0; i < n - 1; i++) {
    share += spoken[i]! / all;
    let cut = -1;
    for (const k of sentenceEnds) {
      if (k <= from || Math.abs(before[k]! - share) > SENTENCE_REACH) continue;
      if (cut < 0 || Math.abs(before[k]! - share) < Math.abs(before[cut]! - share)) cut = k;
    }
    if (cut < 0) continue; // no sentence ends here: this utterance and the next share a piece
    pieces.push({ first, last: i, text: words.slice(from, cut).join(" ") });
    first = i + 1;
    from = cut;
  }
  pieces.push({ first, last: n - 1, text: words.slice(from).join(" ") });
  return pieces.filter((p) => p.text);
}
