import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useCreateMenu } from "../api/create-menu.ts";
import { NameFormDialog } from "./name-form-dialog.tsx";

export function FolderCreateDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateMenu();
  return (
    <NameFormDialog
      open={open}
      title={t("folders.create")}
      label={t("folders.nameLabel")}
      placeholder={t("folders.namePlaceholder")}
      initial=""
      min={1}
      max={20}
      invalidText={t("folders.nameInvalid")}
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
