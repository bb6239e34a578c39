import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { WebhooksView } from "@/features/admin/components/webhooks-view.tsx";

/** /admin/webhooks: operator-wide webhook endpoints and their deliveries. */
export default function AdminWebhooksPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.webhooks.title")} testId="admin-webhooks">
      <WebhooksView />
    </AdminPage>
  );
}
