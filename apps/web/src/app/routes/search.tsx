import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { paths } from "@/config/paths.ts";
import { SearchView } from "@/features/search/components/search-view.tsx";

/** /search?q=: every record's transcript, name, speakers and summary (issue 23). */
export default function SearchPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.search")}>
      <RequireLogin>
        <SearchView detailPath={paths.detail} />
      </RequireLogin>
    </Page>
  );
}
