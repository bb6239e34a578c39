/** tradeStatus: -1 created, 0 scanned, 1 paid, 2 finished, 3 closed (docs/commerce.md). */
export const TRADE_STATUSES = [
  { value: -1, key: "created" },
  { value: 0, key: "scanned" },
  { value: 1, key: "paid" },
  { value: 2, key: "finished" },
  { value: 3, key: "closed" },
] as const;

export type TradeStatusKey = (typeof TRADE_STATUSES)[number]["key"];

export function tradeStatusKey(tradeStatus: number): TradeStatusKey {
  return TRADE_STATUSES.find((s) => s.value === tradeStatus)?.key ?? "created";
}
