import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** Text to speech with a library voice. */
export default function TextToSpeechPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.textToSpeech")}>
      <RequireLogin>
        <EmptyState icon="♪" text={t("empty.voice")} />
      </RequireLogin>
    </Page>
  );
}
