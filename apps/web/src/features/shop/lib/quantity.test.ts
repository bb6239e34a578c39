import { describe, expect, it } from "vitest";
import { canAfford, maxQuantity, parseQuantity, unitCost, validityMonths } from "./quantity.ts";

describe("spec §5 redeem quantity", () => {
  it("costs exchangeCoin a unit when discounted, else originalCoin", () => {
    expect(unitCost({ discount: true, exchangeCoin: 500, originalCoin: 600 })).toBe(500);
    expect(unitCost({ discount: false, exchangeCoin: 500, originalCoin: 600 })).toBe(600);
  });

  it("allows up to floor(balance / unit cost)", () => {
    expect(maxQuantity(700, 300)).toBe(2);
    expect(maxQuantity(900, 300)).toBe(3);
    expect(maxQuantity(299, 300)).toBe(1); // the stepper still holds 1; redeem is disabled instead
    expect(maxQuantity(10_000_000, 1)).toBe(999); // one redeem takes at most SHOP_MAX_QUANTITY
  });

  it("is an integer from 1 to the maximum; a non-number resets to 1", () => {
    expect(parseQuantity("2", 3)).toBe(2);
    expect(parseQuantity(2, 3)).toBe(2);
    expect(parseQuantity("2.7", 3)).toBe(2);
    expect(parseQuantity("9", 3)).toBe(3);
    expect(parseQuantity(4, 3)).toBe(3);
    expect(parseQuantity("0", 3)).toBe(1);
    expect(parseQuantity("-5", 3)).toBe(1);
    expect(parseQuantity("abc", 3)).toBe(1);
    expect(parseQuantity("", 3)).toBe(1);
    expect(parseQuantity("  ", 3)).toBe(1);
    expect(parseQuantity("NaN", 3)).toBe(1);
    expect(parseQuantity("Infinity", 3)).toBe(1);
  });

  it("disables redeem ('not enough beans') when one unit costs more than the balance", () => {
    expect(canAfford(299, 300)).toBe(false);
    expect(canAfford(300, 300)).toBe(true);
    expect(canAfford(0, 300)).toBe(false);
  });

  it("states a card's validity in months of 30 days", () => {
    expect(validityMonths(90 * 86400)).toBe(3);
    expect(validityMonths(86400)).toBe(1);
  });
});
