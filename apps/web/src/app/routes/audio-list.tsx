import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { paths } from "@/config/paths.ts";
import { RecordsListView } from "@/features/records/components/records-list-view.tsx";
import { SearchBox } from "@/features/search/components/search-box.tsx";

/** Spec §2 /audio-list: my records. */
export default function AudioListPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.audioList")} actions={<SearchBox searchPath={paths.search} />}>
      <RequireLogin>
        <RecordsListView />
      </RequireLogin>
    </Page>
  );
}
