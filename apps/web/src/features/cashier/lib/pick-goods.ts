import type { PayGoods } from "@yuelu/contracts";

/** The goods the user picked, else the preselected id, else the first (spec §2: the first plan by default). */
export function pickGoods(list: readonly PayGoods[] | undefined, id: number | null): PayGoods | undefined {
  if (!list || list.length === 0) return undefined;
  return list.find((g) => g.goodsId === id) ?? list[0];
}
