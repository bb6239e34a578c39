import { useTranslation } from "react-i18next";
import { Page } from "../../components/page.tsx";
import { RequireLogin } from "../../components/require-login.tsx";
import { EmptyState } from "../../components/ui/states.tsx";

/** My records: the list, folders and batch actions arrive with the records feature; until then an honest empty state. */
export default function AudioListPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.audioList")}>
      <RequireLogin>
        <EmptyState icon="≣" text={t("empty.records")} />
      </RequireLogin>
    </Page>
  );
}
