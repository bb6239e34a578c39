import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { RecordsListView } from "@/features/records/components/records-list-view.tsx";

/** Spec §2 /audio-list: my records. */
export default function AudioListPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.audioList")}>
      <RequireLogin>
        <RecordsListView />
      </RequireLogin>
    </Page>
  );
}
