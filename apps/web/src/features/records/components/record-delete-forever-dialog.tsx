import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { useDeleteForever } from "../api/delete-forever.ts";

/** Out of the recycle bin for good: row, transcript and files. */
export function RecordDeleteForeverDialog({
  records,
  onClose,
  onDone,
}: {
  records: { fileId: number }[] | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const purge = useDeleteForever();
  return (
    <ConfirmDialog
      open={records !== null}
      title={t("records.deleteForeverTitle")}
      text={t("records.deleteForeverText", { count: records?.length ?? 0 })}
      confirmLabel={t("records.deleteForever")}
      danger
      pending={purge.isPending}
      onClose={onClose}
      onConfirm={() =>
        records &&
        purge.mutate(
          records.map((r) => r.fileId),
          {
            onSuccess: () => {
              toast.success(t("records.deletedForever"));
              onDone?.();
              onClose();
            },
          },
        )
      }
    />
  );
}
