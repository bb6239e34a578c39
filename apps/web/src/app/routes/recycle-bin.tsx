import { useTranslation } from "react-i18next";
import { Page } from "@/components/page.tsx";
import { RequireLogin } from "@/components/require-login.tsx";
import { RecycleBinView } from "@/features/records/components/recycle-bin-view.tsx";

/** Spec §2 /recycle-bin: deleted records, restorable. */
export default function RecycleBinPage() {
  const { t } = useTranslation();
  return (
    <Page title={t("titles.recycleBin")}>
      <RequireLogin>
        <RecycleBinView />
      </RequireLogin>
    </Page>
  );
}
