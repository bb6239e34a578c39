import type { TtsWork } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { useDeleteWorks } from "../api/delete-works.ts";

/** Deleting a work removes its audio for good: asked first. */
export function WorkDeleteDialog({
  work,
  onClose,
  onDeleted,
}: {
  work: TtsWork | null;
  onClose: () => void;
  onDeleted: (taskId: number) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteWorks();
  return (
    <ConfirmDialog
      open={work !== null}
      title={t("tts.deleteTitle")}
      text={t("tts.deleteText", { title: work?.title ?? "" })}
      confirmLabel={t("tts.delete")}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        work &&
        remove.mutate([work.taskId], {
          onSuccess: () => {
            toast.success(t("tts.deleted"));
            onDeleted(work.taskId);
            onClose();
          },
        })
      }
    />
  );
}
