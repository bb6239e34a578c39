import type { Segment } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { clipRange } from "./clip-range.ts";

const segments: Segment[] = [
  {
    spkName: "说话人1",
    startTime: 0,
    endTime: 3000,
    text: "Ask not what your country can do.",
    words: [
      { text: "Ask", startTime: 310, endTime: 700 },
      { text: "not", startTime: 1000, endTime: 1300 },
      { text: "what", startTime: 1400, endTime: 1600 },
      { text: "your", startTime: 1650, endTime: 1800 },
      { text: "country", startTime: 1850, endTime: 2300 },
      { text: "can", startTime: 2350, endTime: 2500 },
      { text: "do.", startTime: 2550, endTime: 2900 },
    ],
  },
  {
    spkName: "说话人2",
    startTime: 3200,
    endTime: 4200,
    text: "今天很好。",
    words: [
      { text: "今", startTime: 3300, endTime: 3500 },
      { text: "天", startTime: 3500, endTime: 3700 },
      { text: "很", startTime: 3700, endTime: 3900 },
      { text: "好。", startTime: 3900, endTime: 4100 },
    ],
  },
  { spkName: "说话人1", startTime: 5000, endTime: 6000, text: "No word times here." },
];

describe("clipRange: a selection cut at its words' boundaries", () => {
  it("takes every word the selection touches, from the first one's start to the last one's end", () => {
    // "ot what yo": inside "not" … inside "your"
    expect(clipRange(segments, { index: 0, offset: 5 }, { index: 0, offset: 16 })).toEqual({
      startTime: 1000,
      endTime: 1800,
      text: "not what your",
    });
  });

  it("reads across lines and in either direction; Han characters are words of their own", () => {
    const range = clipRange(segments, { index: 1, offset: 3 }, { index: 0, offset: 27 });
    expect(range).toEqual({ startTime: 2350, endTime: 3900, text: "can do. 今天很" });
  });

  it("a line without word times counts whole; a selection of spaces alone holds no word", () => {
    expect(clipRange(segments, { index: 2, offset: 3 }, { index: 2, offset: 6 })).toMatchObject({
      startTime: 5000,
      endTime: 6000,
    });
    expect(clipRange(segments, { index: 0, offset: 3 }, { index: 0, offset: 4 })).toBeNull();
  });
});
