import type { MenuItem } from "@yuelu/contracts";
import { MENU_NAME_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { useMenus } from "../api/get-menus.ts";
import { useUpdateMenu } from "../api/update-menu.ts";

export function FolderRenameDialog({ menu, onClose }: { menu: MenuItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateMenu();
  const menus = useMenus();
  return (
    <NameFormDialog
      open={menu !== null}
      title={t("folders.rename")}
      label={t("folders.nameLabel")}
      placeholder={t("folders.namePlaceholder")}
      initial={menu?.menuName ?? ""}
      min={1}
      max={MENU_NAME_MAX}
      invalidText={t("folders.nameInvalid")}
      taken={(name) => (menus.data ?? []).some((m) => m.menuName === name)}
      takenText={t("folders.nameTaken")}
      pending={update.isPending}
      onClose={onClose}
      onSubmit={(menuName) => {
        if (!menu || menuName === menu.menuName) return onClose();
        update.mutate(
          { menuId: menu.menuId, menuName },
          {
            onSuccess: () => {
              toast.success(t("folders.renamed"));
              onClose();
            },
          },
        );
      }}
    />
  );
}
