import type { TtsWork } from "@yuelu/contracts";
import { TTS_TITLE_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { useRenameWork } from "../api/rename-work.ts";

export function WorkRenameDialog({ work, onClose }: { work: TtsWork | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameWork();
  return (
    <NameFormDialog
      open={work !== null}
      title={t("tts.renameTitle")}
      label={t("tts.titleLabel")}
      initial={work?.title ?? ""}
      min={1}
      max={TTS_TITLE_MAX}
      invalidText={t("tts.titleInvalid", { max: TTS_TITLE_MAX })}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={(title) => {
        if (!work || title === work.title) return onClose();
        rename.mutate(
          { taskId: work.taskId, title },
          {
            onSuccess: () => {
              toast.success(t("tts.renamed"));
              onClose();
            },
          },
        );
      }}
    />
  );
}
