import * as Popover from "@radix-ui/react-popover";
import type { AudioRecord } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { Button } from "@/components/ui/button.tsx";
import { audioDownloadUrl, startDownload } from "@/lib/downloads.ts";
import { canTranscribe } from "@/utils/file-status.ts";
import { detailHref } from "../lib/links.ts";

/** The dialog a row or the batch bar opened, with the records it is for. */
export type RecordDialog =
  | { kind: "rename"; records: [AudioRecord] }
  | { kind: "move" | "delete" | "transcribe" | "download"; records: AudioRecord[] }
  | null;

/** A row's actions: transcribe (when it can be), open, and a menu (rename, move, download, delete). */
export function RecordRowActions({ record, onDialog }: { record: AudioRecord; onDialog: (d: RecordDialog) => void }) {
  const { t } = useTranslation();
  return (
    <div className="row-actions">
      {canTranscribe(record.fileStatus) && (
        <Button size="sm" onClick={() => onDialog({ kind: "transcribe", records: [record] })}>
          {t("records.transcribe")}
        </Button>
      )}
      <Link className="btn btn-secondary btn-sm" to={detailHref(record)}>
        {t("records.open")}
      </Link>
      <Popover.Root>
        <Popover.Trigger className="btn btn-ghost btn-sm" aria-label={`${t("records.more")} ${record.fileName}`}>
          ⋯
        </Popover.Trigger>
        <Popover.Portal>
          <Popover.Content className="popover menu-popover" align="end" sideOffset={4}>
            <Popover.Close className="menu-item" onClick={() => onDialog({ kind: "rename", records: [record] })}>
              {t("records.rename")}
            </Popover.Close>
            <Popover.Close className="menu-item" onClick={() => onDialog({ kind: "move", records: [record] })}>
              {t("records.move")}
            </Popover.Close>
            <Popover.Close
              className="menu-item"
              onClick={() => startDownload(audioDownloadUrl(record.fileId), record.fileName)}
            >
              {t("records.download")}
            </Popover.Close>
            <Popover.Close className="menu-item danger" onClick={() => onDialog({ kind: "delete", records: [record] })}>
              {t("records.delete")}
            </Popover.Close>
          </Popover.Content>
        </Popover.Portal>
      </Popover.Root>
    </div>
  );
}
