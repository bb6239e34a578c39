/**
 * Money in the console: operators type yuan ('12', '12.5', '¥1,299.00'), the API takes and answers
 * integer fen. The conversion works on the digits as text, never through a float, so '0.29' is 29
 * fen and not 28.999…; more than two decimals, a sign or anything not a number is refused.
 */

/** The largest price the console accepts: ¥10,000,000.00. */
export const MAX_FEN = 1_000_000_000;

const YUAN = /^(\d{1,8})(?:\.(\d{0,2}))?$/;

/** Fen from what an operator typed in yuan, or null when it is not a price (empty, negative, 3 decimals…). */
export function yuanToFen(input: string): number | null {
  const text = input
    .trim()
    .replace(/^[¥￥]\s*/u, "")
    .replaceAll(",", "");
  const match = YUAN.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const cents = Number((match[2] ?? "").padEnd(2, "0"));
  const fen = whole * 100 + cents;
  return fen <= MAX_FEN ? fen : null;
}

/** Fen as the yuan text an input starts with: 1250 → '12.50', 0 → '0.00'. */
export function fenToYuanText(fen: number): string {
  const abs = Math.abs(Math.trunc(fen));
  return `${fen < 0 ? "-" : ""}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, "0")}`;
}

/** Fen shown to operators: always two decimals and thousands separators, '¥1,299.00'. */
export function formatYuan(fen: number): string {
  const text = fenToYuanText(fen);
  const negative = text.startsWith("-");
  const [whole = "0", cents = "00"] = text.replace("-", "").split(".");
  return `${negative ? "-" : ""}¥${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}.${cents}`;
}
