import type { Checkout, PayGoods } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { formatFen } from "@/lib/format.ts";
import "./price-detail.css";

/**
 * Spec §2 price detail: goods amount, the discount, the total and the purchase notes — the
 * server's checkout (integer fen). Before sign-in there is no checkout: the goods' own fen fields
 * stand in, without notes.
 */
export function PriceDetail({ goods, checkout }: { goods: PayGoods; checkout: Checkout | undefined }) {
  const { t } = useTranslation();
  const current = checkout?.goods.goodsId === goods.goodsId ? checkout : undefined;
  const currency = current?.currency ?? goods.currency;
  const amount = current?.goodsAmountFen ?? goods.originalPriceFen;
  const total = current?.totalFen ?? goods.priceFen;
  const discount = current?.discountFen ?? goods.originalPriceFen - goods.priceFen;
  return (
    <section className="price-detail" data-testid="price-detail">
      <h3 className="price-detail-title">{t("cashier.priceDetail")}</h3>
      <dl className="price-rows">
        <div>
          <dt>{t("cashier.goodsAmount")}</dt>
          <dd>{formatFen(amount, currency)}</dd>
        </div>
        {discount > 0 && (
          <div>
            <dt>{t("cashier.discount")}</dt>
            <dd className="price-discount">{formatFen(-discount, currency)}</dd>
          </div>
        )}
        <div className="price-total">
          <dt>{t("cashier.total")}</dt>
          <dd data-testid="price-total">{formatFen(total, currency)}</dd>
        </div>
      </dl>
      {current && current.notes.length > 0 && (
        <>
          <h4 className="price-notes-title">{t("cashier.notes")}</h4>
          <ul className="price-notes" data-testid="purchase-notes">
            {current.notes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
