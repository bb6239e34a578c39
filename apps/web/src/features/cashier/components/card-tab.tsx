import { GoodsType } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { useAccountReady } from "@/lib/account.ts";
import { cashierDialog } from "@/lib/app-dialogs.ts";
import { useCheckout } from "../api/get-checkout.ts";
import { usePayGoods } from "../api/get-pay-goods.ts";
import { usePayOrder } from "../hooks/use-pay-order.ts";
import { pickGoods } from "../lib/pick-goods.ts";
import { GoodsPicker } from "./goods-picker.tsx";
import { PayPanel } from "./pay-panel.tsx";
import { PriceDetail } from "./price-detail.tsx";

/** Spec §2 'buy duration card': the cards (one may be preselected), the price detail and the QR. */
export function CardTab({ goodsId }: { goodsId: number | null }) {
  const { t } = useTranslation();
  const cards = usePayGoods(GoodsType.DurationCard);
  const [picked, setPicked] = useState(goodsId);
  const goods = pickGoods(cards.data, picked);
  const checkout = useCheckout(goods?.goodsId ?? null);
  const pay = usePayOrder({ goods, enabled: useAccountReady() });

  if (cards.isPending) return <Spinner />;
  if (cards.isError || !goods) return <ErrorState onRetry={() => void cards.refetch()} />;
  return (
    <div className="cashier-tab" data-testid="cashier-card">
      <GoodsPicker goods={cards.data} selectedId={goods.goodsId} onSelect={setPicked} label={t("cashier.cards")} />
      <div className="cashier-body">
        <PayPanel goods={goods} pay={pay} onDone={cashierDialog.close} />
        <PriceDetail goods={goods} checkout={checkout.data} />
      </div>
    </div>
  );
}
