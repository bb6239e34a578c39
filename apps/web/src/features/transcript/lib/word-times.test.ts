import { describe, expect, it } from "vitest";
import { splitByMatches } from "./search.ts";
import { alignWords, withWords, wordAt } from "./word-times.ts";

/** Words timed 500 ms apart from `start`. */
const timed = (texts: string[], start = 0) =>
  texts.map((text, i) => ({ text, startTime: start + i * 500, endTime: start + i * 500 + 400 }));
const shown = (text: string, spans: ReturnType<typeof alignWords>) => spans?.map((s) => text.slice(s.from, s.to));

describe("a segment's timed words in its text", () => {
  it("English: each word where it stands, its punctuation with it, its times", () => {
    const text = "Hello, world. This is fine.";
    const spans = alignWords(text, timed(["Hello,", "world.", "This", "is", "fine."], 1000));
    expect(shown(text, spans)).toEqual(["Hello,", "world.", "This", "is", "fine."]);
    expect(spans?.[2]).toEqual({ from: 14, to: 18, startTime: 2000, endTime: 2400 });
  });

  it("Chinese: one word a character, punctuation riding with the one before; a Latin run inside is one word", () => {
    const text = "好的，用iPhone拍。";
    const spans = alignWords(text, timed(["好", "的，", "用", "iPhone", "拍。"]));
    expect(shown(text, spans)).toEqual(["好", "的，", "用", "iPhone", "拍。"]);
  });

  it("an engine's own tokens (several characters, other punctuation, other case) are found in order", () => {
    const text = "今天天气很好，我们出去走走。";
    const spans = alignWords(text, timed(["今天", "天气", "很好", "我们", "出去", "走走"]));
    expect(shown(text, spans)).toEqual(["今天", "天气", "很好", "我们", "出去", "走走"]);
    const english = "OK, New York is big.";
    expect(shown(english, alignWords(english, timed(["ok", "new york,", "is", "big"])))).toEqual([
      "OK",
      "New York",
      "is",
      "big",
    ]);
  });

  it("text edited so the words no longer tell it: none (the segment is marked whole, never a wrong word)", () => {
    // a word changed
    expect(alignWords("Hello there, world.", timed(["Hello", "big", "world."]))).toBeNull();
    // a word added that has no time
    expect(alignWords("大家好，今天开会。", timed([..."大家好今天会"]))).toBeNull();
    // a word added at the end
    expect(alignWords("预算需要再看一遍。好", timed([..."预算需要再看一遍"]))).toBeNull();
    // no words measured
    expect(alignWords("Hello", undefined)).toBeNull();
    expect(alignWords("Hello", [])).toBeNull();
  });

  it("an edit of punctuation only keeps every word's time", () => {
    const text = "Hello world!";
    expect(shown(text, alignWords(text, timed(["Hello,", "world."])))).toEqual(["Hello", "world!"]);
  });
});

describe("the word under the playhead", () => {
  const spans = alignWords("one two three", timed(["one", "two", "three"], 1000))!;
  it("is the last begun, through the pause after it; none before the first", () => {
    expect(wordAt(spans, 999)).toBe(-1);
    expect(wordAt(spans, 1000)).toBe(0);
    expect(wordAt(spans, 1450)).toBe(0);
    expect(wordAt(spans, 1500)).toBe(1);
    expect(wordAt(spans, 60_000)).toBe(2);
  });

  it("is found by binary search in a long segment", () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      from: i,
      to: i + 1,
      startTime: i * 10,
      endTime: i * 10 + 9,
    }));
    expect(wordAt(many, 54_321)).toBe(5_432);
  });
});

describe("words and search marks together", () => {
  it("cuts parts where words begin and end: a match across two words, a word across a match's end", () => {
    const text = "Hello world again";
    const spans = alignWords(text, timed(["Hello", "world", "again"]));
    // "lo wor": the end of word 0, the space, the start of word 1
    const parts = withWords(splitByMatches(text, [{ segment: 0, start: 3, end: 9 }], 4), spans);
    expect(parts).toEqual([
      { text: "Hel", pieces: [{ text: "Hel", word: 0 }] },
      {
        text: "lo wor",
        match: 4,
        pieces: [{ text: "lo", word: 0 }, { text: " " }, { text: "wor", word: 1 }],
      },
      {
        text: "ld again",
        pieces: [{ text: "ld", word: 1 }, { text: " " }, { text: "again", word: 2 }],
      },
    ]);
    // every character is in exactly one piece, in order
    expect(parts.flatMap((p) => p.pieces.map((w) => w.text)).join("")).toBe(text);
  });

  it("without word times: the parts as they were, one piece each", () => {
    const parts = withWords(splitByMatches("今天天气很好", [{ segment: 0, start: 2, end: 4 }], 0), null);
    expect(parts).toEqual([
      { text: "今天", pieces: [{ text: "今天" }] },
      { text: "天气", match: 0, pieces: [{ text: "天气" }] },
      { text: "很好", pieces: [{ text: "很好" }] },
    ]);
  });
});
