import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { AuditLog } from "@/features/admin/components/audit-log.tsx";

/** /admin/audit: the append-only log of operators' actions. */
export default function AdminAuditPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.audit.title")} testId="admin-audit">
      <section className="card admin-section">
        <AuditLog />
      </section>
    </AdminPage>
  );
}
