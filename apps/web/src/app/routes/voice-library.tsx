import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** The voice library. */
export default function VoiceLibraryPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.voiceLibrary")}>
      <EmptyState icon="◎" text={t("empty.library")} />
    </Page>
  );
}
