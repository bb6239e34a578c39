import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** AI sings for you. */
export default function SongConversionPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.songConversion")}>
      <RequireLogin>
        <EmptyState icon="♫" text={t("empty.voice")} />
      </RequireLogin>
    </Page>
  );
}
