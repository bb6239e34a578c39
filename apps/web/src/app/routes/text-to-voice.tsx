import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { TtsStudio } from "@/features/tts/components/tts-studio.tsx";

/** Spec §2 /textToVoice: text to audio (where /voiceClone leads). */
export default function TextToVoicePage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.textToVoice")}>
      <RequireLogin>
        <TtsStudio />
      </RequireLogin>
    </Page>
  );
}
