import { VOICE_WORK_TITLE_MAX, type VoiceWorkKind } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { ConfirmDialog } from "@/components/ui/confirm-dialog.tsx";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import type { VoiceWork } from "../api/types.ts";
import { useDeleteWorks, useRenameWork } from "../api/works.ts";

export function WorkRenameDialog({
  kind,
  work,
  onClose,
}: {
  kind: VoiceWorkKind;
  work: VoiceWork | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const rename = useRenameWork(kind);
  return (
    <NameFormDialog
      open={work !== null}
      title={t("voiceKit.renameTitle")}
      label={t("voiceKit.titleLabel")}
      initial={work?.title ?? ""}
      min={1}
      max={VOICE_WORK_TITLE_MAX}
      invalidText={t("voiceKit.titleInvalid", { max: VOICE_WORK_TITLE_MAX })}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={(title) => {
        if (!work || title === work.title) return onClose();
        rename.mutate(
          { workId: work.workId, title },
          {
            onSuccess: () => {
              toast.success(t("voiceKit.renamed"));
              onClose();
            },
          },
        );
      }}
    />
  );
}

/** Deleting a work removes its audio (and the song it was made from) for good: asked first. */
export function WorkDeleteDialog({
  kind,
  work,
  onClose,
  onDeleted,
}: {
  kind: VoiceWorkKind;
  work: VoiceWork | null;
  onClose: () => void;
  onDeleted: (workId: number) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteWorks(kind);
  return (
    <ConfirmDialog
      open={work !== null}
      title={t("voiceKit.deleteTitle")}
      text={t(`voiceKit.deleteText.${kind}`, { title: work?.title ?? "" })}
      confirmLabel={t("voiceKit.delete")}
      danger
      pending={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        work &&
        remove.mutate([work.workId], {
          onSuccess: () => {
            toast.success(t("voiceKit.deleted"));
            onDeleted(work.workId);
            onClose();
          },
        })
      }
    />
  );
}
