import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Order checkout. */
export default function OrderPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.order")}>
      <RequireLogin>
        <EmptyState icon="¥" text={t("empty.orders")} />
      </RequireLogin>
    </Page>
  );
}
