import type { ShopGoods } from "@yuelu/contracts";
import { RewardType } from "@yuelu/contracts/constants";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { RewardImage } from "@/components/ui/reward-image.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { openCashier, shopDialog } from "@/lib/app-dialogs.ts";
import { formatFen } from "@/lib/format.ts";
import { useCashGoods, useShopGoods } from "../api/get-shop-goods.ts";
import { canAfford, unitCost, validityMonths } from "../lib/quantity.ts";
import "./goods-lists.css";

/** 'Buy directly': the cash goods; buying one opens the cashier on its card, the shop closing behind it. */
export function CashGoodsList() {
  const { t } = useTranslation();
  const goods = useCashGoods();
  if (goods.isPending) return <Spinner />;
  if (goods.isError) return <ErrorState onRetry={() => void goods.refetch()} />;
  if (goods.data.length === 0) return <EmptyState icon="¥" text={t("shop.emptyCash")} />;
  return (
    <ul className="shop-grid" data-testid="cash-goods">
      {goods.data.map((g) => (
        <GoodsCard
          key={g.goodsId}
          testId={`cash-goods-${g.goodsId}`}
          image={<RewardImage type={RewardType.TimeCard} amount={g.duration} />}
          name={g.goodsName}
          meta={t("shop.validYear")}
          price={formatFen(g.priceFen, g.currency)}
          was={g.originalPriceFen > g.priceFen ? formatFen(g.originalPriceFen, g.currency) : undefined}
          action={
            <Button
              size="sm"
              block
              onClick={() => {
                shopDialog.close();
                openCashier({ tabs: ["card"], defaultTab: "card", goodsId: g.goodsId });
              }}
            >
              {t("shop.buy")}
            </Button>
          }
        />
      ))}
    </ul>
  );
}

/**
 * 'Exchange with beans': the redeem goods at their unit cost (exchangeCoin when discounted, the
 * original struck through); 'not enough beans' disables those one unit of which costs more than the balance.
 */
export function RedeemGoodsList({
  balance,
  onRedeem,
}: {
  balance: number | undefined;
  onRedeem: (goods: ShopGoods) => void;
}) {
  const { t } = useTranslation();
  const goods = useShopGoods();
  if (goods.isPending) return <Spinner />;
  if (goods.isError) return <ErrorState onRetry={() => void goods.refetch()} />;
  if (goods.data.list.length === 0) return <EmptyState icon="●" text={t("shop.emptyRedeem")} />;
  return (
    <ul className="shop-grid" data-testid="redeem-goods">
      {goods.data.list.map((g) => {
        const unit = unitCost(g);
        const affordable = balance !== undefined && canAfford(balance, unit);
        return (
          <GoodsCard
            key={g.goodsId}
            testId={`redeem-goods-${g.goodsId}`}
            image={<RewardImage type={RewardType.TimeCard} amount={g.duration} />}
            name={g.goodsName}
            meta={t("shop.validMonths", { count: validityMonths(g.effectiveTime) })}
            intro={g.goodsIntroduce}
            price={t("rewards.beansN", { count: unit })}
            was={g.discount && g.originalCoin > unit ? String(g.originalCoin) : undefined}
            beans
            action={
              <Button
                size="sm"
                block
                variant={affordable || balance === undefined ? "primary" : "secondary"}
                disabled={!affordable}
                onClick={() => onRedeem(g)}
                data-testid="redeem"
              >
                {balance !== undefined && !affordable ? t("shop.notEnough") : t("shop.redeem")}
              </Button>
            }
          />
        );
      })}
    </ul>
  );
}

function GoodsCard({
  testId,
  image,
  name,
  meta,
  intro,
  price,
  was,
  beans,
  action,
}: {
  testId: string;
  image: ReactNode;
  name: string;
  meta: string;
  intro?: string;
  price: string;
  was?: string;
  beans?: boolean;
  action: ReactNode;
}) {
  return (
    <li className="shop-card" data-testid={testId}>
      <div className="shop-card-image">{image}</div>
      <div className="shop-card-name">{name}</div>
      <div className="shop-card-meta muted" title={intro}>
        {meta}
      </div>
      <div className={beans ? "shop-card-price beans" : "shop-card-price"}>
        <strong data-testid="goods-cost">{price}</strong>
        {was && <s className="muted">{was}</s>}
      </div>
      {action}
    </li>
  );
}
