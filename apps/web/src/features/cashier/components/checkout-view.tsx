import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { useAccountReady } from "@/lib/account.ts";
import { openCashier } from "@/lib/app-dialogs.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { useCheckout } from "../api/get-checkout.ts";
import { executePayment, getTransferOrder, placeCheckout } from "../api/pay-order.ts";
import { usePayOrder } from "../hooks/use-pay-order.ts";
import { GoodsSummary } from "./goods-picker.tsx";
import { PayPanel } from "./pay-panel.tsx";
import { PriceDetail } from "./price-detail.tsx";
import "./checkout-view.css";

/**
 * Spec §2 /order: the goods (`?goodsId=`), its price detail and notes, and the same QR and polling
 * as the cashier. The order is placed through order/checkout; an order still open for payment —
 * `?orderNumber=` (from my orders), or the latest one (get_transfer_order) when it is for these
 * goods or no goods was asked for — is resumed instead, so a reload does not make a new order.
 */
export function CheckoutView({ goodsId, orderNumber }: { goodsId: number | null; orderNumber: string | null }) {
  const { t } = useTranslation();
  const ready = useAccountReady();
  const transfer = useQuery({
    queryKey: queryKeys.commerce.transferOrder,
    queryFn: getTransferOrder,
    enabled: ready && orderNumber === null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const open = transfer.data?.order ?? null;
  const targetId = goodsId ?? open?.goodsId ?? null;
  const resume = orderNumber ?? (open && open.goodsId === targetId ? open.orderNumber : null);
  const settled = orderNumber !== null || transfer.isSuccess || transfer.isError;
  const checkout = useCheckout(targetId);
  const goods = checkout.data?.goods;
  const pay = usePayOrder({
    goods,
    enabled: ready && settled,
    place: (id, clientKey) => (resume ? executePayment(id, resume) : placeCheckout(id, clientKey)),
  });

  if (!ready || !settled || (targetId !== null && checkout.isPending)) return <Spinner />;
  if (targetId === null) {
    return (
      <EmptyState
        icon="¥"
        text={
          <>
            <strong>{t("checkout.chooseTitle")}</strong>
            <p className="muted">{t("checkout.chooseText")}</p>
          </>
        }
        action={
          <div className="checkout-choose">
            <Link to={paths.vip} className="btn btn-primary">
              {t("checkout.toVip")}
            </Link>
            <Button variant="secondary" onClick={() => openCashier({ defaultTab: "card" })}>
              {t("vip.buyCards")}
            </Button>
          </div>
        }
      />
    );
  }
  if (checkout.isError || !checkout.data) return <ErrorState onRetry={() => void checkout.refetch()} />;
  const g = checkout.data.goods;
  return (
    <div className="checkout" data-testid="checkout">
      <div className="checkout-main">
        <section className="checkout-goods">
          <h2 className="section-title">{t("checkout.goods")}</h2>
          <div className="checkout-goods-row">
            <strong data-testid="checkout-goods-name">{g.goodsName}</strong>
            <span className="muted">
              <GoodsSummary goods={g} />
            </span>
          </div>
        </section>
        <PriceDetail goods={g} checkout={checkout.data} />
      </div>
      <PayPanel goods={g} pay={pay} />
    </div>
  );
}
