import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Spec §2 /vip: the membership center. Plans and QR payment arrive with the payments feature. */
export default function VipPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("vip.title")}>
      <p className="muted">{t("vip.subtitle")}</p>
      <EmptyState icon="♛" text={t("common.comingSoon")} />
    </Page>
  );
}
