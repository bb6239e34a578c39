import type { Segment } from "@yuelu/contracts";
import { describe, expect, it } from "vitest";
import {
  avatarGradient,
  avatarText,
  formatMs,
  parseSegments,
  renameSpeaker,
  segmentAt,
  speakerIndexes,
} from "./segments.ts";

const seg = (startTime: number, endTime: number, spkName = "说话人1", text = "x"): Segment => ({
  spkName,
  startTime,
  endTime,
  text,
});

describe("segmentAt (the segment under the playhead)", () => {
  const segments = [seg(0, 1000), seg(1000, 2500), seg(3000, 4000), seg(4000, 6000)];
  it("finds the segment containing the time, start inclusive and end exclusive", () => {
    expect(segmentAt(segments, 0)).toBe(0);
    expect(segmentAt(segments, 999)).toBe(0);
    expect(segmentAt(segments, 1000)).toBe(1);
    expect(segmentAt(segments, 2499)).toBe(1);
    expect(segmentAt(segments, 3500)).toBe(2);
    expect(segmentAt(segments, 5999)).toBe(3);
  });
  it("is -1 before the first segment, in a pause and after the last", () => {
    expect(segmentAt(segments, -5)).toBe(-1);
    expect(segmentAt(segments, 2700)).toBe(-1);
    expect(segmentAt(segments, 6000)).toBe(-1);
    expect(segmentAt([], 10)).toBe(-1);
  });
  it("prefers the later of overlapping segments", () => {
    expect(segmentAt([seg(0, 3000), seg(2000, 4000)], 2500)).toBe(1);
  });
  it("lets a segment without an end last until the next begins", () => {
    const open = [seg(0, 0), seg(5000, 0)];
    expect(segmentAt(open, 4999)).toBe(0);
    expect(segmentAt(open, 99_999)).toBe(1);
  });
  it("is fast on 20 000 segments", () => {
    const many = Array.from({ length: 20_000 }, (_, i) => seg(i * 1000, i * 1000 + 900));
    expect(segmentAt(many, 12_345_500)).toBe(12_345);
    expect(segmentAt(many, 12_345_950)).toBe(-1);
  });
});

describe("segments", () => {
  it("parses asrResult JSON text, tolerating junk", () => {
    expect(parseSegments('[{"spkName":"A","startTime":"5","endTime":9,"text":"hi"}]')).toEqual([
      { spkName: "A", startTime: 5, endTime: 9, text: "hi" },
    ]);
    expect(parseSegments('{"segments":[{"spkName":"B","startTime":1,"endTime":2,"text":"t"}]}')).toHaveLength(1);
    expect(parseSegments("not json")).toEqual([]);
    expect(parseSegments("")).toEqual([]);
    expect(parseSegments(null)).toEqual([]);
  });
  it("formats times as mm:ss", () => {
    expect(formatMs(0)).toBe("00:00");
    expect(formatMs(65_999)).toBe("01:05");
    expect(formatMs(3_600_000 + 61_000)).toBe("1:01:01");
  });
  it("gives speakers indexes in order of appearance and cycles 3 gradients", () => {
    const idx = speakerIndexes([seg(0, 1, "B"), seg(1, 2, "A"), seg(2, 3, "B"), seg(3, 4, "C"), seg(4, 5, "D")]);
    expect([...idx.entries()]).toEqual([
      ["B", 0],
      ["A", 1],
      ["C", 2],
      ["D", 3],
    ]);
    expect([0, 1, 2, 3, 4, 5].map(avatarGradient)).toEqual([0, 1, 2, 0, 1, 2]);
  });
  it("shows a default label's number on the avatar, else the name's first character (issue 43)", () => {
    expect(avatarText("说话人1")).toBe("1");
    expect(avatarText("说话人12")).toBe("12");
    expect(avatarText("Speaker 2")).toBe("2");
    expect(avatarText(" speaker 03 ")).toBe("3");
    expect(avatarText("王老师")).toBe("王");
    expect(avatarText("张三")).toBe("张");
    expect(avatarText("li4")).toBe("L");
    expect(avatarText("说话人")).toBe("说");
    expect(avatarText("Speaker")).toBe("S");
    expect(avatarText("𠀀字")).toBe("𠀀");
    expect(avatarText("")).toBe("?");
  });
  it("renames one speaker, or all segments of the old name", () => {
    const s = [seg(0, 1, "A"), seg(1, 2, "B"), seg(2, 3, "A")];
    expect(renameSpeaker(s, 0, "张三", false).map((x) => x.spkName)).toEqual(["张三", "B", "A"]);
    expect(renameSpeaker(s, 2, "张三", true).map((x) => x.spkName)).toEqual(["张三", "B", "张三"]);
  });
});
