import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { useRenameRecord } from "../api/rename-record.ts";
import type { AudioRecord } from "../api/types.ts";
import { NameFormDialog } from "./name-form-dialog.tsx";

export function RecordRenameDialog({ record, onClose }: { record: AudioRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useRenameRecord();
  return (
    <NameFormDialog
      open={record !== null}
      title={t("records.renameTitle")}
      label={t("records.fileNameLabel")}
      initial={record?.fileName ?? ""}
      min={1}
      max={100}
      invalidText={t("records.fileNameInvalid")}
      pending={rename.isPending}
      onClose={onClose}
      onSubmit={(fileName) => {
        if (!record || fileName === record.fileName) return onClose();
        rename.mutate(
          { fileId: record.fileId, fileName },
          {
            onSuccess: () => {
              toast.success(t("records.renamed"));
              onClose();
            },
          },
        );
      }}
    />
  );
}
