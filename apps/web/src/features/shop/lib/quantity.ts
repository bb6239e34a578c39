import type { ShopGoods } from "@yuelu/contracts";
import { SHOP_MAX_QUANTITY } from "@yuelu/contracts/constants";

/** Spec §5 redeem quantity rules, pure. */

/** One unit's cost: exchangeCoin when the goods are discounted, else originalCoin. */
export function unitCost(goods: Pick<ShopGoods, "discount" | "exchangeCoin" | "originalCoin">): number {
  return goods.discount ? goods.exchangeCoin : goods.originalCoin;
}

/** Redeem is disabled ('not enough beans') when one unit costs more than the balance. */
export function canAfford(balance: number, unit: number): boolean {
  return unit <= balance;
}

/** The most units the balance pays for: floor(balance / unit cost), at least 1, at most what one redeem takes. */
export function maxQuantity(balance: number, unit: number): number {
  if (unit <= 0) return SHOP_MAX_QUANTITY;
  return Math.max(1, Math.min(Math.floor(Math.max(0, balance) / unit), SHOP_MAX_QUANTITY));
}

/** What the stepper holds for an input: an integer from 1 to max; anything that is not a number resets to 1. */
export function parseQuantity(input: string | number, max: number): number {
  const text = String(input).trim();
  const n = Number(text);
  if (text === "" || !Number.isFinite(n)) return 1;
  return Math.min(Math.max(Math.floor(n), 1), Math.max(1, max));
}

/** The validity of a card from its seconds, in whole months of 30 days (spec §9), at least 1. */
export function validityMonths(seconds: number): number {
  return Math.max(1, Math.round(seconds / (30 * 86400)));
}
