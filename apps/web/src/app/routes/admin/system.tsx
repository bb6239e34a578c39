import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { SystemView } from "@/features/admin/components/system-view.tsx";

/** /admin/system: engines, queues, failed jobs, storage. */
export default function AdminSystemPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.system.title")} testId="admin-system">
      <SystemView />
    </AdminPage>
  );
}
