import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { SingStudio } from "@/features/voice/components/sing-studio.tsx";

/** AI sings for you: a built-in tune or a MIDI file sung with lyrics in a library voice or one of mine. */
export default function SongConversionPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.songConversion")}>
      <RequireLogin>
        <SingStudio />
      </RequireLogin>
    </Page>
  );
}
