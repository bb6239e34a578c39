import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { RecordsListView } from "@/features/records/components/records-list-view.tsx";

/**
 * Spec §2 /audio-list: my records. One search box (the list's, by name, with the transcripts' full-text
 * search one link away — issue 43: the page had three ways to search).
 */
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
