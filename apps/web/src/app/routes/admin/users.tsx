import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { UsersTable } from "@/features/admin/components/users-table.tsx";

/** /admin/users: find a user. */
export default function AdminUsersPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.users.title")} testId="admin-users">
      <section className="card admin-section">
        <UsersTable />
      </section>
    </AdminPage>
  );
}
