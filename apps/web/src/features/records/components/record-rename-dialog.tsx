import type { AudioRecord } from "@yuelu/contracts";
import { FILE_NAME_MAX } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { NameFormDialog } from "@/components/ui/name-form-dialog.tsx";
import { useRenameRecord } from "../api/rename-record.ts";

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
      max={FILE_NAME_MAX}
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
