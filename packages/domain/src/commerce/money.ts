/**
 * Money is integer fen everywhere it is stored or compared (1 yuan = 100 fen). Yuan appear only at
 * the edges: the API's `price` numbers, Alipay's "84.00" strings, labels.
 */

/** Yuan as a number, exactly fen / 100 (8400 → 84, 3450 → 34.5). */
export function yuan(fen: number): number {
  return fen / 100;
}

/** Alipay's amount format: yuan with two decimals ("84.00"), built from the integer, no float arithmetic. */
export function alipayAmount(fen: number): string {
  return `${Math.floor(fen / 100)}.${String(fen % 100).padStart(2, "0")}`;
}

/** A price label: "84", "34.5", "0.05" — no trailing zeros. */
export function priceLabel(fen: number): string {
  return alipayAmount(fen).replace(/\.?0+$/, "");
}

/** "84.00" / "84" / "84.5" → 8400 / 8400 / 8450; anything else (more decimals, signs, junk) → null. */
export function parseAlipayAmount(text: string): number | null {
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}
