import { describe, expect, it } from "vitest";
import { estimateRowHeight, fullyVisible, textEms, withPinned } from "./rows.ts";

describe("virtual rows", () => {
  it("counts Han characters a whole em and Latin letters about half of one", () => {
    expect(textEms("预算")).toBe(2);
    expect(textEms("ab")).toBeCloseTo(1.1);
    expect(textEms("，。")).toBe(2);
  });

  it("estimates a row from its text wrapped at the list's width", () => {
    const one = estimateRowHeight("短句。", 760);
    const long = "这是一段很长的文字，".repeat(30);
    expect(one).toBeGreaterThanOrEqual(56);
    expect(estimateRowHeight(long, 760)).toBeGreaterThan(one + 100);
    // narrower: more lines
    expect(estimateRowHeight(long, 340)).toBeGreaterThan(estimateRowHeight(long, 760));
    // unmeasured (0 wide): a desktop column is assumed
    expect(estimateRowHeight(long, 0)).toBe(estimateRowHeight(long, 760));
  });

  it("adds the pinned rows (being edited) to those in view, in order, once", () => {
    expect(withPinned([10, 11, 12], [], 100)).toEqual([10, 11, 12]);
    expect(withPinned([10, 11, 12], [3, 11, 50], 100)).toEqual([3, 10, 11, 12, 50]);
    // a pinned row that no longer exists (the transcript got shorter) is dropped
    expect(withPinned([0, 1], [7], 5)).toEqual([0, 1]);
  });

  it("a row is in view only when it is wholly inside the band", () => {
    expect(fullyVisible(100, 180, 100, 800)).toBe(true);
    expect(fullyVisible(90, 180, 100, 800)).toBe(false);
    expect(fullyVisible(700, 820, 100, 800)).toBe(false);
  });
});
