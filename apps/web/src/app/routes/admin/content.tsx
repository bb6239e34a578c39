import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { ContentView } from "@/features/admin/components/content-view.tsx";

/** /admin/content: help documents and feedback. */
export default function AdminContentPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.content.title")} testId="admin-content">
      <ContentView />
    </AdminPage>
  );
}
