import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Text to audio. */
export default function TextToVoicePage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.textToVoice")}>
      <RequireLogin>
        <EmptyState icon="♪" text={t("empty.voice")} />
      </RequireLogin>
    </Page>
  );
}
