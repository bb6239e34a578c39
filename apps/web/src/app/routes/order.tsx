import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { CheckoutView } from "@/features/cashier/components/checkout-view.tsx";

/** Spec §2 /order: order checkout for `?goodsId=` (and `&orderNumber=` to pay an open order of mine). */
export default function OrderPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const goodsId = Number(params.get("goodsId"));
  return (
    <Page title={t("titles.order")}>
      <RequireLogin>
        <CheckoutView
          key={params.toString()}
          goodsId={Number.isSafeInteger(goodsId) && goodsId > 0 ? goodsId : null}
          orderNumber={params.get("orderNumber") || null}
        />
      </RequireLogin>
    </Page>
  );
}
