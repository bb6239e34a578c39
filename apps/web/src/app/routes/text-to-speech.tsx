import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { TtsStudio } from "@/features/tts/components/tts-studio.tsx";

/** Spec §2 /text-to-speech (beside /voice-library): the text read by the library voice chosen there. */
export default function TextToSpeechPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.textToSpeech")}>
      <RequireLogin>
        <TtsStudio />
      </RequireLogin>
    </Page>
  );
}
