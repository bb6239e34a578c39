import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { MessagesView } from "@/features/admin/components/messages-view.tsx";

/** /admin/messages: broadcasts and messages to one user. */
export default function AdminMessagesPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.messages.title")} testId="admin-messages">
      <MessagesView />
    </AdminPage>
  );
}
