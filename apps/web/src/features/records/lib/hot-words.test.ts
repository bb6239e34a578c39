import { describe, expect, it } from "vitest";
import { addHotWords } from "./hot-words.ts";

describe("hot words", () => {
  it("adds several at once, trimmed and de-duplicated", () => {
    expect(addHotWords(["悦录"], " 张三，李四, 悦录\nYuelu ")).toEqual({ list: ["悦录", "张三", "李四", "Yuelu"] });
  });
  it("refuses a word over 50 characters and more than 200 words", () => {
    expect(addHotWords([], "字".repeat(51))).toEqual({ problem: "tooLong" });
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`);
    expect(addHotWords(many, "one more")).toEqual({ problem: "tooMany" });
  });
});
