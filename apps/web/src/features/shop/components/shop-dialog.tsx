import type { PurchaseResult, ShopGoods } from "@yuelu/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "@/components/ui/dialog.tsx";
import { RewardPopup } from "@/components/ui/reward-popup.tsx";
import { useAssets } from "@/lib/account.ts";
import { shopDialog } from "@/lib/app-dialogs.ts";
import { validityMonths } from "../lib/quantity.ts";
import { CashGoodsList, RedeemGoodsList } from "./goods-lists.tsx";
import { RedeemDialog } from "./redeem-dialog.tsx";
import { ShopHeader } from "./shop-header.tsx";
import "./shop-dialog.css";

/**
 * Spec §2 shop dialog: the bean balance (with what beans are), the shop notes and 'view details';
 * 'buy directly' (cash goods, paid in the cashier) and 'exchange with beans' (redeem goods, through
 * the confirm dialog with its quantity stepper). Mounted while open (app/engagement-dialogs.tsx).
 */
export default function ShopDialog() {
  const { t } = useTranslation();
  const assets = useAssets();
  const balance = assets.data?.allCoinNumber;
  const [redeeming, setRedeeming] = useState<ShopGoods | null>(null);
  const [done, setDone] = useState<{ result: PurchaseResult; goods: ShopGoods } | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && shopDialog.close()}
      title={t("shop.title")}
      wide
      className="shop-dialog"
      description={t("shop.balanceHelp")}
    >
      <ShopHeader balance={balance} />
      <section className="shop-section" aria-labelledby="shop-cash">
        <h3 id="shop-cash" className="shop-section-title">
          {t("shop.buyDirectly")}
        </h3>
        <CashGoodsList />
      </section>
      <section className="shop-section" aria-labelledby="shop-redeem">
        <h3 id="shop-redeem" className="shop-section-title">
          {t("shop.exchange")}
        </h3>
        <RedeemGoodsList balance={balance} onRedeem={setRedeeming} />
      </section>
      {redeeming && balance !== undefined && (
        <RedeemDialog
          goods={redeeming}
          balance={balance}
          onClose={() => setRedeeming(null)}
          onDone={(result) => {
            setDone({ result, goods: redeeming });
            setRedeeming(null);
          }}
        />
      )}
      {done && (
        <RewardPopup
          title={t("shop.successTitle")}
          rewards={[{ type: done.result.signRewardType, amount: done.result.signRewardNumber }]}
          text={t("shop.successText", { count: validityMonths(done.goods.effectiveTime) })}
          onClose={() => setDone(null)}
        />
      )}
    </Dialog>
  );
}
