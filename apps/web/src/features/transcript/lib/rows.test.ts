import { describe, expect, it } from "vitest";
import { estimateRowHeight, estimateTranslatedRowHeight, fullyVisible, textEms, withPinned } from "./rows.ts";

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

describe("estimateTranslatedRowHeight", () => {
  const zh = "这个季度的预算超了百分之二十，财务要重新核对发票。".repeat(3);
  const en = "EN: the budget is twenty per cent over this quarter; finance will check the invoices again.".repeat(2);
  it("side by side on a wide list: the taller half, taller than the original across the whole width", () => {
    const side = estimateTranslatedRowHeight(zh, en, "side", 800);
    expect(side).toBeGreaterThan(estimateRowHeight(zh, 800));
    expect(side).toBeLessThan(estimateRowHeight(zh, 800) + estimateRowHeight(en, 800));
  });
  it("stacked on a phone: both texts one under the other; translation only: the translation's height", () => {
    expect(estimateTranslatedRowHeight(zh, en, "side", 340)).toBeGreaterThan(
      estimateRowHeight(zh, 340) + estimateRowHeight(en, 340) - 50,
    );
    expect(estimateTranslatedRowHeight(zh, en, "translation", 340)).toBe(estimateRowHeight(en, 340));
  });
});
