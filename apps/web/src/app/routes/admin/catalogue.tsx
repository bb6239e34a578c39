import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { CatalogueView } from "@/features/admin/components/catalogue-view.tsx";

/** /admin/catalogue: plans, duration cards and shop goods. */
export default function AdminCataloguePage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.catalogue.title")} testId="admin-catalogue">
      <CatalogueView />
    </AdminPage>
  );
}
