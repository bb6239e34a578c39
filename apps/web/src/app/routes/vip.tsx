import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { VipCenter } from "@/features/cashier/components/vip-center.tsx";

/** Spec §2 /vip: the membership center. */
export default function VipPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("vip.title")}>
      <VipCenter />
    </Page>
  );
}
