import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { VoiceLibraryView } from "@/features/tts/components/voice-library-view.tsx";

/** Spec §2 /voice-library: the voices, their samples, and 'use this voice'. */
export default function VoiceLibraryPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.voiceLibrary")}>
      <VoiceLibraryView />
    </Page>
  );
}
