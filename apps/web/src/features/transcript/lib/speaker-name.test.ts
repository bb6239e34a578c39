import { describe, expect, it } from "vitest";
import { checkSpeakerName } from "./speaker-name.ts";

describe("speaker rename rules (spec §5)", () => {
  it("closes on empty or unchanged input", () => {
    expect(checkSpeakerName("", "说话人1")).toEqual({ kind: "close" });
    expect(checkSpeakerName("   ", "说话人1")).toEqual({ kind: "close" });
    expect(checkSpeakerName("说话人1", "说话人1")).toEqual({ kind: "close" });
  });
  it("accepts Han characters, English letters and digits", () => {
    expect(checkSpeakerName("张三Li4", "说话人1")).toEqual({ kind: "ok", name: "张三Li4" });
    expect(checkSpeakerName("𠀀字", "a")).toEqual({ kind: "ok", name: "𠀀字" });
  });
  it("refuses spaces, symbols, punctuation and other scripts", () => {
    for (const bad of ["张 三", "a-b", "张三!", "名字。", "a_b", "Ünal", "ひらがな", "😀"]) {
      expect(checkSpeakerName(bad, "x")).toEqual({ kind: "invalid" });
    }
  });
  it("allows 10 characters, not 11", () => {
    expect(checkSpeakerName("一二三四五六七八九十", "x").kind).toBe("ok");
    expect(checkSpeakerName("abcdefghijk", "x")).toEqual({ kind: "tooLong" });
  });
});
