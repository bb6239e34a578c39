import { describe, expect, it } from "vitest";
import { answerPieces, translationTarget, withNote } from "./notes.ts";

describe("answerPieces", () => {
  it("cuts an answer at [n], [n][m], [n, m] and [n，m]", () => {
    expect(answerPieces("预算超了[1]。招聘[2][3]，面试[1, 4]与[2，5]")).toEqual([
      { key: "0", text: "预算超了" },
      { key: "4.0", cite: 1 },
      { key: "7", text: "。招聘" },
      { key: "10.0", cite: 2 },
      { key: "13.0", cite: 3 },
      { key: "16", text: "，面试" },
      { key: "19.0", cite: 1 },
      { key: "19.1", cite: 4 },
      { key: "25", text: "与" },
      { key: "26.0", cite: 2 },
      { key: "26.1", cite: 5 },
    ]);
  });
  it("leaves text without citations, and brackets that are not numbers, as they are", () => {
    expect(answerPieces("no [citation] here")).toEqual([{ key: "0", text: "no [citation] here" }]);
  });
});

describe("translationTarget", () => {
  it("translates Chinese into English and anything else into Chinese; judges 'auto' by the text", () => {
    expect(translationTarget("zh", [])).toBe("en");
    expect(translationTarget("en", [])).toBe("zh");
    expect(translationTarget("auto", ["大家好，今天开会。"])).toBe("en");
    expect(translationTarget("auto", ["Hello everyone, welcome."])).toBe("zh");
    expect(translationTarget("ja", [])).toBe("zh");
  });
});

describe("withNote", () => {
  it("replaces the note of the same kind (and translation target), keeping the others", () => {
    const note = (taskId: number, kind: "chapters" | "translation", target = "") =>
      ({ taskId, kind, target }) as Parameters<typeof withNote>[1];
    const notes = [note(1, "chapters"), note(2, "translation", "en"), note(3, "translation", "zh")];
    expect(withNote(notes, note(4, "translation", "en")).map((n) => n.taskId)).toEqual([4, 1, 3]);
    expect(withNote(notes, note(5, "chapters")).map((n) => n.taskId)).toEqual([5, 2, 3]);
  });
});
