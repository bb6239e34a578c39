import { carryWordTimes, type Segment, wordSpans, wordTokens } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { toSrt, toVtt } from "../../apps/api/src/modules/transcript/exports.ts";
import { wordsOf } from "../../apps/worker/src/engines/asr/sherpa.ts";

/** Word times (issue 45): one cut of a text into words everywhere, kept across edits, and in the subtitles. */

describe("a transcript's words", () => {
  it("each Han character is one; elsewhere runs between spaces; punctuation rides with the word before", () => {
    expect(wordTokens("今天天气很好，我用iPhone拍的。")).toEqual([
      "今",
      "天",
      "天",
      "气",
      "很",
      "好，",
      "我",
      "用",
      "iPhone",
      "拍",
      "的。",
    ]);
    expect(wordTokens("“Ask not,” he said — twice.")).toEqual(["“Ask", "not,”", "he", "said —", "twice."]);
    const text = "Hello,  world.";
    for (const span of wordSpans(text)) expect(text.slice(span.from, span.to)).toBe(span.text);
    expect(wordTokens("…")).toEqual([]);
    expect(wordTokens("今天很好，hello world。")).toEqual(["今", "天", "很", "好，", "hello", "world。"]);
  });
});

describe("carryWordTimes: an edit keeps the times of the words it did not change", () => {
  const before = [
    { text: "The", startTime: 100, endTime: 250 },
    { text: "quick", startTime: 250, endTime: 545 },
    { text: "brown", startTime: 545, endTime: 915 },
    { text: "fox", startTime: 915, endTime: 1430 },
    { text: "jumps.", startTime: 1480, endTime: 1795 },
  ];
  const span = { startTime: 0, endTime: 2000 };

  it("a word replaced takes the time between its neighbours; the others keep theirs", () => {
    const after = carryWordTimes(before, "The quick red fox jumps.", span);
    expect(after).toEqual([before[0], before[1], { text: "red", startTime: 545, endTime: 915 }, before[3], before[4]]);
  });

  it("punctuation and case changes keep every time; inserted words share the gap by length", () => {
    expect(carryWordTimes(before, "the quick brown fox, jumps!", span).map((w) => w.startTime)).toEqual([
      100, 250, 545, 915, 1480,
    ]);
    const inserted = carryWordTimes(before, "The quick brown sly old fox jumps.", span);
    expect(inserted.map((w) => w.text)).toEqual(["The", "quick", "brown", "sly", "old", "fox", "jumps."]);
    expect(inserted[3]).toEqual({ text: "sly", startTime: 915, endTime: 915 });
    expect(inserted[5]).toEqual(before[3]);
  });

  it("Chinese: a character changed keeps the times of the others", () => {
    const zh = [
      { text: "今", startTime: 0, endTime: 200 },
      { text: "天", startTime: 200, endTime: 400 },
      { text: "很", startTime: 400, endTime: 600 },
      { text: "好。", startTime: 600, endTime: 900 },
    ];
    const after = carryWordTimes(zh, "今天真好。", { startTime: 0, endTime: 900 });
    expect(after).toEqual([zh[0], zh[1], { text: "真", startTime: 400, endTime: 600 }, zh[3]]);
  });
});

describe("SenseVoice's tokens as words", () => {
  it("joins an English word's pieces and punctuation onto the word before; one word per Han character", () => {
    const words = wordsOf(
      {
        text: "hello world, 你好",
        // sherpa-onnx answers SentencePiece's "▁" as a space
        tokens: ["<|en|>", "▁hel", "lo", " world", ",", "你", "好"],
        timestamps: [0, 0.12, 0.3, 0.54, 0.9, 1.2, 1.5],
      },
      1000,
      3000,
    );
    expect(words).toEqual([
      { text: "hello", startMs: 1120, endMs: 1540 },
      { text: "world,", startMs: 1540, endMs: 1900 },
      { text: "你", startMs: 2200, endMs: 2500 },
      { text: "好", startMs: 2500, endMs: 3000 },
    ]);
  });
});

describe("subtitles use the word times", () => {
  const segment: Segment = {
    spkName: "说话人1",
    startTime: 200,
    endTime: 2400,
    text: "Ask not what",
    words: [
      { text: "Ask", startTime: 330, endTime: 700 },
      { text: "not", startTime: 1010, endTime: 1300 },
      { text: "what", startTime: 1400, endTime: 2200 },
    ],
  };
  it("a cue runs from the first word's start to the last one's end (not the padding around them)", () => {
    expect(toSrt([segment], { withSpeaker: false })).toBe("1\n00:00:00,330 --> 00:00:02,200\nAsk not what\n");
  });
  it("a word-level VTT puts each later word's start before it", () => {
    expect(toVtt([segment], { withSpeaker: true, words: true })).toBe(
      "WEBVTT\n\n1\n00:00:00.330 --> 00:00:02.200\n<v 说话人1>Ask <00:00:01.010>not <00:00:01.400>what\n",
    );
    // without word times, the cue is the segment's
    expect(toVtt([{ ...segment, words: undefined }], { withSpeaker: false, words: true })).toContain(
      "00:00:00.200 --> 00:00:02.400\nAsk not what",
    );
  });
});
