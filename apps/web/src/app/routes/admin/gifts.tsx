import { useTranslation } from "react-i18next";
import { AdminPage } from "@/features/admin/components/admin-layout.tsx";
import { GiftsView } from "@/features/admin/components/gifts-view.tsx";

/** /admin/gifts: gift-code batches and their codes. */
export default function AdminGiftsPage() {
  const { t } = useTranslation();
  return (
    <AdminPage title={t("admin.gifts.title")} testId="admin-gifts">
      <GiftsView />
    </AdminPage>
  );
}
