import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/ui/button.tsx";
import { ProgressBar } from "../../../components/ui/states.tsx";
import { progressById, useProgress } from "../../records/api/get-progress.ts";
import { recordKeys } from "../../records/api/keys.ts";
import type { AudioRecord } from "../../records/api/types.ts";
import { RecordTranscribeDialog } from "../../records/components/record-transcribe-dialog.tsx";
import { FileStatus, isInProgress, isSettled } from "../../records/lib/status.ts";

/**
 * A record without a transcript yet: never transcribed (a transcribe button), in queue or
 * transcribing (progress polled every 2 s), or failed (the reason, and transcribe again).
 */
export function DetailStatus({ record }: { record: AudioRecord }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const watch = isInProgress(record.fileStatus) || record.fileStatus === FileStatus.Failed;
  const progress = useProgress([record.fileId], watch);
  const p = progressById(progress.data).get(record.fileId);
  const fileStatus = p?.fileStatus ?? record.fileStatus;
  const value = p?.progress ?? record.progress;

  // The record changed state under us: fetch it again (complete → the transcript loads).
  useEffect(() => {
    if (p && p.fileStatus !== record.fileStatus && isSettled(p.fileStatus)) {
      void client.invalidateQueries({ queryKey: recordKeys.record(record.fileId) });
    }
  }, [p, record.fileStatus, record.fileId, client]);

  return (
    <div className="detail-status" data-testid="detail-status">
      {fileStatus === FileStatus.Failed ? (
        <>
          <div className="empty-icon" aria-hidden>
            !
          </div>
          <p className="status-title">{t("transcript.failed")}</p>
          {p?.errorMsg && <p className="muted">{t("transcript.failedReason", { reason: p.errorMsg })}</p>}
          <Button onClick={() => setAsking(true)}>{t("transcript.retry")}</Button>
        </>
      ) : isInProgress(fileStatus) ? (
        <>
          <p className="status-title">
            {fileStatus === FileStatus.InQueue
              ? t("transcript.queued")
              : t("transcript.transcribing", { progress: value })}
          </p>
          <div className="detail-progress">
            <ProgressBar value={fileStatus === FileStatus.InQueue ? 0 : value} label={t("transcribe.progressTitle")} />
          </div>
        </>
      ) : (
        <>
          <div className="empty-icon" aria-hidden>
            ✎
          </div>
          <p className="status-title">{t("transcript.notTranscribed")}</p>
          <Button onClick={() => setAsking(true)} data-testid="detail-transcribe">
            {t("transcribe.start")}
          </Button>
        </>
      )}
      <RecordTranscribeDialog records={asking ? [{ ...record, fileStatus }] : null} onClose={() => setAsking(false)} />
    </div>
  );
}
