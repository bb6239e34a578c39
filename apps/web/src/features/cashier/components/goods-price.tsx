import type { PayGoods } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { formatFen } from "@/lib/format.ts";
import "./goods-price.css";

/**
 * A goods' price as the API states it: the discount label (spec §9: 84, 336) or the price from
 * integer fen, and the original price struck through when discounted. No arithmetic on yuan.
 */
export function GoodsPrice({ goods }: { goods: PayGoods }) {
  const { t } = useTranslation();
  const was = formatFen(goods.originalPriceFen, goods.currency);
  const amount = goods.discount && goods.discountLabel ? goods.discountLabel : formatFen(goods.priceFen, "");
  return (
    <span className="goods-price">
      <span className="goods-price-now" data-testid="goods-price">
        <small>{goods.currency}</small>
        {amount}
      </span>
      {goods.discount && (
        <>
          <s className="goods-price-was" data-testid="goods-original-price" aria-hidden>
            {was}
          </s>
          <span className="sr-only">{t("cashier.originalPrice", { price: was })}</span>
        </>
      )}
    </span>
  );
}
