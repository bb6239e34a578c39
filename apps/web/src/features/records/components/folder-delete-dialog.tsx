import type { MenuItem } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { useDeleteMenu } from "../api/delete-menu.ts";

export function FolderDeleteDialog({
  menu,
  onClose,
  onDone,
}: {
  menu: MenuItem | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteMenu();
  return (
    <ConfirmDialog
      open={menu !== null}
      title={t("folders.delete")}
      text={t("folders.deleteText", { name: menu?.menuName ?? "" })}
      confirmLabel={t("records.delete")}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        menu &&
        remove.mutate(menu.menuId, {
          onSuccess: () => {
            toast.success(t("folders.deleted"));
            onDone?.();
            onClose();
          },
        })
      }
    />
  );
}
