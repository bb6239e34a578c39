import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { EmptyState } from "@/components/ui/states.tsx";

/** My voice: the user's own voices. */
export default function MyVoicePage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.myVoice")}>
      <RequireLogin>
        <EmptyState icon="♪" text={t("empty.voice")} />
      </RequireLogin>
    </Page>
  );
}
