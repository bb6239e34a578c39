import { useTranslation } from "react-i18next";
import { Page } from "../../components/page.tsx";
import { RequireLogin } from "../../components/require-login.tsx";
import { EmptyState } from "../../components/ui/states.tsx";

/** Recycle bin: deleted records, restorable; empty until records exist. */
export default function RecycleBinPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.recycleBin")}>
      <RequireLogin>
        <EmptyState icon="♻" text={t("empty.recycleBin")} />
      </RequireLogin>
    </Page>
  );
}
