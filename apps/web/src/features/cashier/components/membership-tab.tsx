import { GoodsType } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ErrorState, Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { useAccountReady } from "@/lib/account.ts";
import { cashierDialog } from "@/lib/app-dialogs.ts";
import { usePayGoods } from "../api/get-pay-goods.ts";
import { usePayOrder } from "../hooks/use-pay-order.ts";
import { pickGoods } from "../lib/pick-goods.ts";
import { GoodsPicker } from "./goods-picker.tsx";
import { PayPanel } from "./pay-panel.tsx";
import { PrivilegeList } from "./privilege-list.tsx";

/** Spec §2 'buy membership': three plans (the first selected), 8 privileges, the QR, the agreement, /vip. */
export function MembershipTab({ goodsId }: { goodsId: number | null }) {
  const { t } = useTranslation();
  const plans = usePayGoods(GoodsType.Membership);
  const [picked, setPicked] = useState(goodsId);
  const goods = pickGoods(plans.data, picked);
  const pay = usePayOrder({ goods, enabled: useAccountReady() });

  if (plans.isPending) return <Spinner />;
  if (plans.isError || !goods) return <ErrorState onRetry={() => void plans.refetch()} />;
  return (
    <div className="cashier-tab" data-testid="cashier-membership">
      <GoodsPicker goods={plans.data} selectedId={goods.goodsId} onSelect={setPicked} label={t("cashier.plans")} />
      <div className="cashier-body">
        <PayPanel goods={goods} pay={pay} onDone={cashierDialog.close} />
        <PrivilegeList />
      </div>
      <Link to={paths.vip} className="cashier-compare" onClick={cashierDialog.close} data-testid="cashier-compare">
        {t("cashier.compare")} ›
      </Link>
    </div>
  );
}
