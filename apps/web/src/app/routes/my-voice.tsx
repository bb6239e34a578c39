import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { MyVoiceView } from "@/features/voice/components/my-voice-view.tsx";

/** My voice: the user's own voices, made from a sample read aloud or uploaded (voice matching or a clone engine). */
export default function MyVoicePage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.myVoice")}>
      <RequireLogin>
        <MyVoiceView />
      </RequireLogin>
    </Page>
  );
}
