import { describe, expect, it } from "vitest";
import { splitAtSentences, syllables } from "../../apps/worker/src/engines/asr/split-text.ts";

const joined = (pieces: { text: string }[]) => pieces.map((p) => p.text).join(" ");

describe("splitAtSentences (one decoded stretch cut back into its utterances)", () => {
  it("keeps every word once and in order, and covers the utterances in order", () => {
    const text = "And so my fellow Americans. Ask not what your country can do for you? Ask what you can do. Yes.";
    for (const durations of [[1], [500, 500], [2000, 600, 2400, 2900], [0, 100, 0], [10, 10, 10, 10, 10, 10]]) {
      const pieces = splitAtSentences(text, durations);
      expect(joined(pieces)).toBe(text);
      expect(pieces[0]!.first).toBe(0);
      expect(pieces.at(-1)!.last).toBe(durations.length - 1);
      for (const [i, p] of pieces.entries()) {
        expect(p.last).toBeGreaterThanOrEqual(p.first);
        if (i > 0) expect(p.first).toBe(pieces[i - 1]!.last + 1);
      }
    }
  });

  it("cuts at the sentence end where the speaking time puts the boundary between two speakers", () => {
    const pieces = splitAtSentences(
      "Good morning everyone, shall we look at the budget first? Yes, the budget is ready.",
      [3300, 2000],
    );
    expect(pieces).toEqual([
      { first: 0, last: 0, text: "Good morning everyone, shall we look at the budget first?" },
      { first: 1, last: 1, text: "Yes, the budget is ready." },
    ]);
  });

  it("never breaks a sentence: utterances with no sentence end between them share one piece", () => {
    // JFK: "ask not" is its own short utterance, but the sentence runs on
    const pieces = splitAtSentences(
      "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.",
      [1780, 680, 2150, 2690],
    );
    expect(pieces).toEqual([
      {
        first: 0,
        last: 3,
        text: "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.",
      },
    ]);
  });

  it("ignores a sentence end far from any boundary (two sentences inside one utterance)", () => {
    const pieces = splitAtSentences("Hi. We met on Tuesday to discuss the budget for next year. Fine.", [4000, 500]);
    expect(pieces.map((p) => p.text)).toEqual(["Hi. We met on Tuesday to discuss the budget for next year.", "Fine."]);
  });

  it("leaves out empty text", () => {
    expect(splitAtSentences("", [1000, 1000])).toEqual([]);
    expect(splitAtSentences("Yes.", [1000, 1000])).toEqual([{ first: 0, last: 1, text: "Yes." }]);
  });

  it("counts syllables: vowel groups for Latin words, one per Chinese character", () => {
    expect(syllables("Americans,")).toBe(4);
    expect(syllables("not")).toBe(1);
    expect(syllables("country")).toBe(2);
    expect(syllables("make")).toBe(1);
    expect(syllables("预算")).toBe(2);
    expect(syllables("42")).toBe(1);
  });
});
