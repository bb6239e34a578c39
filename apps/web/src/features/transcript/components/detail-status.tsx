import { useQueryClient } from "@tanstack/react-query";
import type { AudioRecord } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar, StateIcon } from "@/components/ui/states.tsx";
import { progressById, useTranscriptionProgress } from "@/hooks/use-transcription-progress.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isInProgress, isSettled } from "@/utils/file-status.ts";
import type { DetailSlots } from "./detail-slots.ts";
import "./detail-status.css";

/**
 * A record without a transcript yet: never transcribed (a transcribe button), in queue or
 * transcribing (progress polled every 2 s), or failed (the reason, and transcribe again).
 */
export function DetailStatus({
  record,
  transcribeDialog,
}: {
  record: AudioRecord;
  transcribeDialog: DetailSlots["transcribeDialog"];
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const watch = isInProgress(record.fileStatus) || record.fileStatus === FileStatus.Failed;
  const progress = useTranscriptionProgress([record.fileId], watch);
  const p = progressById(progress.data).get(record.fileId);
  const fileStatus = p?.fileStatus ?? record.fileStatus;
  const value = p?.progress ?? record.progress;

  // The record changed state under us: fetch it again (complete → the transcript loads).
  useEffect(() => {
    if (p && p.fileStatus !== record.fileStatus && isSettled(p.fileStatus)) {
      void client.invalidateQueries({ queryKey: queryKeys.records.detail(record.fileId) });
    }
  }, [p, record.fileStatus, record.fileId, client]);

  return (
    <div className="detail-status" data-testid="detail-status">
      {fileStatus === FileStatus.Failed ? (
        <>
          <StateIcon>!</StateIcon>
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
            <ProgressBar value={fileStatus === FileStatus.InQueue ? 0 : value} label={t("transcript.progressLabel")} />
          </div>
        </>
      ) : (
        <>
          <StateIcon>✎</StateIcon>
          <p className="status-title">{t("transcript.notTranscribed")}</p>
          <Button onClick={() => setAsking(true)} data-testid="detail-transcribe">
            {t("transcript.transcribe")}
          </Button>
        </>
      )}
      {transcribeDialog(asking ? { ...record, fileStatus } : null, () => setAsking(false))}
    </div>
  );
}
