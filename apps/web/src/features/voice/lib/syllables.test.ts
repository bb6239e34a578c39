import { describe, expect, it } from "vitest";
import { countSyllables, fitSyllables, splitSyllables } from "./syllables.ts";

describe("syllables of lyrics (as the server counts them)", () => {
  it("counts one syllable per Chinese character; a Latin word or a number is one; punctuation is none", () => {
    expect(splitSyllables("一闪一闪亮晶晶，满天都是小星星。", "zh")).toHaveLength(14);
    expect(countSyllables("  你好！\n世界 ", "zh")).toBe(4);
    expect(splitSyllables("我爱 music 2024 年", "zh")).toEqual(["我", "爱", "music", "2024", "年"]);
  });

  it("cuts English words as the server does (contracts/syllables.ts)", () => {
    expect(splitSyllables("twinkle happy like wonder", "en")).toEqual([
      "twin",
      "kle",
      "hap",
      "py",
      "like",
      "won",
      "der",
    ]);
    expect(countSyllables("Twinkle, twinkle, little star, how I wonder what you are", "en")).toBe(14);
    expect(countSyllables("Don't stop 你好", "en")).toBe(2);
  });

  it("fills the notes the lyrics leave over with the server's filler", () => {
    expect(fitSyllables(["你", "好"], 4, "zh")).toEqual([
      { text: "你", filler: false },
      { text: "好", filler: false },
      { text: "啦", filler: true },
      { text: "啦", filler: true },
    ]);
    expect(fitSyllables(["a", "b", "c"], 2, "en").map((w) => w.text)).toEqual(["a", "b"]);
  });
});
