import { describe, expect, it } from "vitest";
import { dropUnset, NO_FILTERS, soundListParams } from "./library-query.ts";
import { setCurrentAudio } from "./playing.ts";

describe("library queries (spec §5)", () => {
  it("drop every filter whose value is -1 (number or string) and empty ones", () => {
    expect(dropUnset({ a: -1, b: "-1", c: "", d: undefined, e: 0, f: "zh" })).toEqual({ e: 0, f: "zh" });
    expect(soundListParams(NO_FILTERS, 1, 12)).toEqual({ page: 1, pageSize: 12, source: 0 });
    expect(soundListParams({ ...NO_FILTERS, gender: "female", keyword: "  晓 " }, 2, 12)).toEqual({
      page: 2,
      pageSize: 12,
      gender: "female",
      keyword: "晓",
      source: 0,
    });
  });
});

describe("setting the current audio (spec §4)", () => {
  it("clears playing on all items, then sets it on the current one only", () => {
    const items = [
      { promptId: 1, playing: true },
      { promptId: 2, playing: true },
      { promptId: 3, playing: false },
    ];
    expect(setCurrentAudio(items, 3).map((i) => i.playing)).toEqual([false, false, true]);
    expect(setCurrentAudio(items, null).map((i) => i.playing)).toEqual([false, false, false]);
    expect(items[0]!.playing).toBe(true); // a new list: the query's data stays as it came
  });
});
