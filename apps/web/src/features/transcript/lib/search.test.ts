import type { Segment } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import { findMatches, matchesBySegment, splitByMatches } from "./search.ts";

const segments: Segment[] = [
  { spkName: "A", startTime: 0, endTime: 1, text: "Hello world, hello again" },
  { spkName: "B", startTime: 1, endTime: 2, text: "今天天气很好" },
  { spkName: "A", startTime: 2, endTime: 3, text: "a.b (c)? HELLO" },
];

describe("transcript search", () => {
  it("finds every match, case-insensitive, in reading order", () => {
    expect(findMatches(segments, "hello")).toEqual([
      { segment: 0, start: 0, end: 5 },
      { segment: 0, start: 13, end: 18 },
      { segment: 2, start: 9, end: 14 },
    ]);
    expect(findMatches(segments, "天气")).toEqual([{ segment: 1, start: 2, end: 4 }]);
  });
  it("treats the query literally and ignores an empty one", () => {
    expect(findMatches(segments, "(c)?")).toEqual([{ segment: 2, start: 4, end: 8 }]);
    expect(findMatches(segments, ".")).toHaveLength(1);
    expect(findMatches(segments, "  ")).toEqual([]);
  });
  it("cuts a segment's text into parts around its matches", () => {
    const all = findMatches(segments, "hello");
    const groups = matchesBySegment(all);
    const g = groups.get(0)!;
    expect(splitByMatches(segments[0]!.text, g.list, g.first)).toEqual([
      { text: "Hello", match: 0 },
      { text: " world, " },
      { text: "hello", match: 1 },
      { text: " again" },
    ]);
    expect(groups.get(2)!.first).toBe(2);
    expect(splitByMatches("plain", [], 0)).toEqual([{ text: "plain" }]);
  });
});
