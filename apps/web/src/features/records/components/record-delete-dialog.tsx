import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { useDeleteRecords } from "../api/delete-records.ts";

/** To the recycle bin (restorable). */
export function RecordDeleteDialog({
  records,
  onClose,
  onDone,
}: {
  records: { fileId: number }[] | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRecords();
  return (
    <ConfirmDialog
      open={records !== null}
      title={t("records.deleteTitle")}
      text={t("records.deleteText", { count: records?.length ?? 0 })}
      confirmLabel={t("records.delete")}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        records &&
        remove.mutate(
          records.map((r) => r.fileId),
          {
            onSuccess: () => {
              toast.success(t("records.deleted"));
              onDone?.();
              onClose();
            },
          },
        )
      }
    />
  );
}
