import type { PayGoods } from "@yuelu/contracts";
import { GoodsType } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { formatDurationText } from "@/lib/format.ts";
import { GoodsPrice } from "./goods-price.tsx";
import "./goods-picker.css";

/** What a goods gives: '30 days of membership', '5 hours of transcription'. */
export function GoodsSummary({ goods }: { goods: PayGoods }) {
  const { t } = useTranslation();
  return goods.goodsType === GoodsType.Membership
    ? t("cashier.memberDays", { count: goods.memberDays })
    : t("cashier.cardTime", { duration: formatDurationText(t, goods.duration, "long") });
}

/**
 * The plans or the duration cards as a radio group of cards: the name, what it gives, the price
 * (with the struck original), and the corner label ('¥78 saved') where the goods has one.
 */
export function GoodsPicker({
  goods,
  selectedId,
  onSelect,
  label,
}: {
  goods: PayGoods[];
  selectedId: number | undefined;
  onSelect: (goodsId: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const name = useId();
  const membership = goods[0]?.goodsType === GoodsType.Membership;
  return (
    <fieldset className={clsx("goods-picker", membership ? "plans" : "cards")} data-testid="goods-picker">
      <legend className="sr-only">{label}</legend>
      {goods.map((g) => (
        <label
          key={g.goodsId}
          className={clsx("goods-option", g.goodsId === selectedId && "selected")}
          data-testid={`goods-${g.goodsId}`}
        >
          <input
            type="radio"
            className="sr-only"
            name={name}
            value={g.goodsId}
            checked={g.goodsId === selectedId}
            onChange={() => onSelect(g.goodsId)}
          />
          {g.cornerLabel && (
            <span className="goods-corner" data-testid="goods-corner">
              {g.cornerLabel}
            </span>
          )}
          <span className="goods-name">{g.goodsName}</span>
          <GoodsPrice goods={g} />
          <span className="goods-summary">
            {/* a card's name already says its hours: its validity says more */}
            {membership ? <GoodsSummary goods={g} /> : t("cashier.cardValidity")}
          </span>
        </label>
      ))}
    </fieldset>
  );
}
