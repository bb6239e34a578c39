import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Song voice conversion. */
export default function SongVoiceConversionPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.songVoiceConversion")}>
      <RequireLogin>
        <EmptyState icon="♫" text={t("empty.voice")} />
      </RequireLogin>
    </Page>
  );
}
