import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { ConvertStudio } from "@/features/voice/components/convert-studio.tsx";

/** Song voice conversion: an uploaded song sung again in another voice, compared before and after. */
export default function SongVoiceConversionPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.songVoiceConversion")}>
      <RequireLogin>
        <ConvertStudio />
      </RequireLogin>
    </Page>
  );
}
