import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { OrdersTable } from "@/features/admin/components/orders-table.tsx";

/** /admin/orders: every order; re-query and refund. */
export default function AdminOrdersPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.orders.title")} testId="admin-orders">
      <section className="card admin-section">
        <OrdersTable />
      </section>
    </AdminPage>
  );
}
