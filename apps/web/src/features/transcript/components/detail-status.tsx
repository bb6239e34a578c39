import { useQueryClient } from "@tanstack/react-query";
import type { AudioRecord, PartialSegment } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar, StateIcon } from "@/components/ui/states.tsx";
import { progressById, useTranscriptionProgress } from "@/hooks/use-transcription-progress.ts";
import { audioDownloadUrl } from "@/lib/downloads.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { isVideo } from "@/utils/file-name.ts";
import { isInProgress, isSettled } from "@/utils/file-status.ts";
import { usePartialTranscript } from "../api/get-partial.ts";
import type { DetailSlots } from "./detail-slots.ts";
import { MediaPlayer } from "./media-player.tsx";
import { PartialTranscript } from "./partial-transcript.tsx";
import "./detail-status.css";

/**
 * A record without a transcript yet: never transcribed (a transcribe button), in queue or
 * transcribing (progress polled every 2 s), or failed (the reason, and transcribe again). In queue
 * and transcribing, the recording plays at once; while it transcribes, the text recognised so far
 * grows under the player (issue 43). `onListening` hears where the player is while it plays (null
 * when paused), so the finished transcript can go on from there.
 */
export function DetailStatus({
  record,
  transcribeDialog,
  onListening,
}: {
  record: AudioRecord;
  transcribeDialog: DetailSlots["transcribeDialog"];
  onListening?: (ms: number | null) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [asking, setAsking] = useState(false);
  const watch = isInProgress(record.fileStatus) || record.fileStatus === FileStatus.Failed;
  const progress = useTranscriptionProgress([record.fileId], watch);
  const p = progressById(progress.data).get(record.fileId);
  const fileStatus = p?.fileStatus ?? record.fileStatus;
  const value = p?.progress ?? record.progress;
  const transcribing = fileStatus === FileStatus.Transcribing;
  // done, and the record not fetched again yet: the text so far stays until the transcript replaces it
  const finishing = fileStatus === FileStatus.Complete;
  const partial = usePartialTranscript(record.fileId, transcribing);
  // the last text of a running task (the answer after it ends has none)
  const [soFar, setSoFar] = useState<PartialSegment[]>([]);
  useEffect(() => {
    if (partial.data && isInProgress(partial.data.fileStatus)) setSoFar(partial.data.segments);
  }, [partial.data]);
  const media = useRef<HTMLMediaElement | null>(null);
  const seek = (ms: number) => {
    const el = media.current;
    if (!el) return;
    el.currentTime = ms / 1000;
    void el.play()?.catch(() => {});
  };

  // The record changed state under us: fetch it again (complete → the transcript loads).
  useEffect(() => {
    if (p && p.fileStatus !== record.fileStatus && isSettled(p.fileStatus)) {
      void client.invalidateQueries({ queryKey: queryKeys.records.detail(record.fileId) });
    }
  }, [p, record.fileStatus, record.fileId, client]);

  if (isInProgress(fileStatus) || finishing) {
    return (
      <div className="detail-transcribing" data-testid="detail-transcribing">
        <MediaPlayer
          src={record.audioPath}
          video={isVideo(record)}
          mediaRef={media}
          onTime={(ms) => onListening?.(media.current?.paused === false ? ms : null)}
          downloadHref={audioDownloadUrl(record.fileId)}
        />
        <div className="detail-status" data-testid="detail-status">
          <p className="status-title">
            {fileStatus === FileStatus.InQueue
              ? t("transcript.queued")
              : t("transcript.transcribing", { progress: finishing ? 100 : value })}
          </p>
          <div className="detail-progress">
            <ProgressBar
              value={fileStatus === FileStatus.InQueue ? 0 : finishing ? 100 : value}
              label={t("transcript.progressLabel")}
            />
          </div>
        </div>
        {(transcribing || finishing) && <PartialTranscript segments={soFar} onSeek={seek} />}
      </div>
    );
  }

  return (
    <div className="detail-status" data-testid="detail-status">
      {fileStatus === FileStatus.Failed ? (
        <>
          <StateIcon>!</StateIcon>
          <p className="status-title">{t("transcript.failed")}</p>
          {p?.errorMsg && <p className="muted">{t("transcript.failedReason", { reason: p.errorMsg })}</p>}
          <Button onClick={() => setAsking(true)}>{t("transcript.retry")}</Button>
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
