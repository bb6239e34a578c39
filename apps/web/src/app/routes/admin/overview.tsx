import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { Overview } from "@/features/admin/components/overview.tsx";

/** /admin: the overview. */
export default function AdminOverviewPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.overview.title")} testId="admin-overview">
      <Overview />
    </AdminPage>
  );
}
