import { MENU_NAME_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { useCreateMenu } from "../api/create-menu.ts";
import { useMenus } from "../api/get-menus.ts";

export function FolderCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateMenu();
  const menus = useMenus();
  return (
    <NameFormDialog
      open={open}
      title={t("folders.create")}
      label={t("folders.nameLabel")}
      placeholder={t("folders.namePlaceholder")}
      initial=""
      min={1}
      max={MENU_NAME_MAX}
      invalidText={t("folders.nameInvalid")}
      taken={(name) => (menus.data ?? []).some((m) => m.menuName === name)}
      takenText={t("folders.nameTaken")}
      pending={create.isPending}
      onClose={onClose}
      onSubmit={(menuName) =>
        create.mutate(menuName, {
          onSuccess: () => {
            toast.success(t("folders.created"));
            onClose();
          },
        })
      }
    />
  );
}
