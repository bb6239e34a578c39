import type { AudioRecord } from "@yuelu/contracts";
import {
  BATCH_DOWNLOAD_INCLUDE,
  BATCH_TRANSCRIPT_FORMATS,
  type BatchDownloadInclude,
  type BatchTranscriptFormat,
  FileStatus,
} from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { batchDownloadUrl, startDownload } from "@/lib/downloads.ts";

/**
 * 打包下载 (issue 43): one zip of the selected records' audio, their transcripts (txt, Word or SRT — the
 * single-record exports), or both side by side. It says beforehand how many of them have no transcript yet:
 * the zip then has none of theirs, and a note naming them.
 */
export function BatchDownloadDialog({ records, onClose }: { records: AudioRecord[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [include, setInclude] = useState<BatchDownloadInclude>("audio");
  const [format, setFormat] = useState<BatchTranscriptFormat>("txt");
  const count = records?.length ?? 0;
  const untranscribed = (records ?? []).filter((r) => r.fileStatus !== FileStatus.Complete).length;
  const download = () => {
    if (!records) return;
    startDownload(
      batchDownloadUrl(
        records.map((r) => r.fileId),
        { include, format },
      ),
    );
    onClose();
  };
  return (
    <Dialog open={records !== null} onOpenChange={(o) => !o && onClose()} title={t("records.zipTitle", { count })}>
      <fieldset className="field zip-options">
        <legend className="field-label">{t("records.zipInclude")}</legend>
        {BATCH_DOWNLOAD_INCLUDE.map((value) => (
          <label key={value} className="option-inline">
            <input
              type="radio"
              name="zip-include"
              value={value}
              checked={include === value}
              onChange={() => setInclude(value)}
            />
            <span>{t(`records.zipInclude_${value}`)}</span>
          </label>
        ))}
      </fieldset>
      {include !== "audio" && (
        <>
          <label className="field">
            <span className="field-label">{t("records.zipFormat")}</span>
            <select
              className="input select"
              value={format}
              onChange={(e) => setFormat(e.target.value as BatchTranscriptFormat)}
              data-testid="zip-format"
            >
              {BATCH_TRANSCRIPT_FORMATS.map((value) => (
                <option key={value} value={value}>
                  {t(`records.zipFormat_${value}`)}
                </option>
              ))}
            </select>
          </label>
          {untranscribed > 0 && (
            <p className="muted" role="status" data-testid="zip-untranscribed">
              {t("records.zipUntranscribed", { count: untranscribed })}
            </p>
          )}
        </>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button onClick={download} data-testid="zip-download">
          {t("records.zipDownload")}
        </Button>
      </div>
    </Dialog>
  );
}
