import type { PurchaseResult, ShopGoods } from "@yuelu/contracts";
import { RewardType } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { RewardImage } from "@/components/ui/reward-image.tsx";
import { ApiError } from "@/lib/api-client.ts";
import { usePurchaseGoods } from "../api/purchase-goods.ts";
import { canAfford, maxQuantity, unitCost } from "../lib/quantity.ts";
import { QuantityStepper } from "./quantity-stepper.tsx";
import "./redeem-dialog.css";

/**
 * Spec §2 redeem confirm dialog: the goods, the quantity stepper (1 to floor(balance / unit cost)),
 * the total and the balance after; 'not enough beans' when one unit costs more than the balance.
 */
export function RedeemDialog({
  goods,
  balance,
  onClose,
  onDone,
}: {
  goods: ShopGoods;
  balance: number;
  onClose: () => void;
  onDone: (result: PurchaseResult) => void;
}) {
  const { t } = useTranslation();
  const unit = unitCost(goods);
  const affordable = canAfford(balance, unit);
  const max = maxQuantity(balance, unit);
  const [quantity, setQuantity] = useState(1);
  const [error, setError] = useState<string | null>(null);
  const purchase = usePurchaseGoods();
  const total = unit * quantity;

  const onConfirm = () => {
    if (!affordable || purchase.isPending) return;
    setError(null);
    purchase.mutate(
      { goodsId: goods.goodsId, exchangeAmount: quantity, coinNumber: total },
      {
        onSuccess: onDone,
        onError: (e) => setError(e instanceof ApiError ? e.message : t("shop.failed")),
      },
    );
  };

  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={t("shop.confirmTitle")} description={goods.goodsName}>
      <div className="redeem" data-testid="redeem-dialog">
        <div className="redeem-goods">
          <RewardImage type={RewardType.TimeCard} amount={goods.duration} size="sm" />
          <div>
            <div className="redeem-name">{goods.goodsName}</div>
            <div className="muted redeem-intro">{goods.goodsIntroduce}</div>
          </div>
        </div>
        <dl className="redeem-rows">
          <div>
            <dt>{t("shop.quantity")}</dt>
            <dd className="redeem-quantity">
              <QuantityStepper value={quantity} max={max} onChange={setQuantity} label={t("shop.quantity")} />
              {affordable && <span className="muted redeem-max">{t("shop.maxHint", { count: max })}</span>}
            </dd>
          </div>
          <div>
            <dt>{t("shop.unitCost")}</dt>
            <dd>{t("rewards.beansN", { count: unit })}</dd>
          </div>
          <div>
            <dt>{t("shop.total")}</dt>
            <dd className="redeem-total" data-testid="redeem-total">
              {t("rewards.beansN", { count: total })}
            </dd>
          </div>
          <div>
            <dt>{t("shop.balanceAfter")}</dt>
            <dd data-testid="redeem-balance-after">{t("rewards.beansN", { count: Math.max(0, balance - total) })}</dd>
          </div>
        </dl>
        {error && (
          <p className="error-text" role="alert" data-testid="redeem-error">
            {error}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button disabled={!affordable || purchase.isPending} onClick={onConfirm} data-testid="redeem-confirm">
          {!affordable ? t("shop.notEnough") : purchase.isPending ? t("shop.redeeming") : t("shop.confirm")}
        </Button>
      </div>
    </Dialog>
  );
}
