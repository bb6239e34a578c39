import { FileStatus, StatusCode } from "@yuelu/contracts/constants";
import { type ReactNode, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router-dom";
import { EmptyState, ErrorState, Spinner } from "@/components/ui/states.tsx";
import { paths } from "@/config/paths.ts";
import { ApiError } from "@/lib/api-client.ts";
import { audioDownloadUrl } from "@/lib/downloads.ts";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { isVideo } from "@/utils/file-name.ts";
import { useRecord } from "../api/get-record.ts";
import { useTranscript } from "../api/get-text.ts";
import type { DetailSlots } from "./detail-slots.ts";
import { DetailStatus } from "./detail-status.tsx";
import { ExportMenu } from "./export-menu.tsx";
import { ShareButton } from "./share-button.tsx";
import { TranscriptView } from "./transcript-view.tsx";
import "./detail-view.css";

const NOT_FOUND = new Set<number>([StatusCode.RecordNotFound, StatusCode.FileNotFound]);

function parseFileId(raw: string | null): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** ?t= (ms into the recording, from a search hit); null when absent or not a number. */
function parseStartAt(raw: string | null): number | null {
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  return Number(raw);
}

const isNotFound = (error: unknown) => error instanceof ApiError && NOT_FOUND.has(error.code);

/**
 * Spec §2 /detail?fileId=&timeLen=&fileName=: the record's state, or its transcript with the player.
 * From a search hit also `t` (ms: play from there) and `q` (the words to mark).
 */
export function DetailView({ transcribeDialog, hotWords }: DetailSlots) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const fileId = parseFileId(params.get("fileId"));
  const record = useRecord(fileId);
  const complete = record.data?.fileStatus === FileStatus.Complete;
  const text = useTranscript(fileId ?? 0, complete);
  const fileName = record.data?.fileName ?? params.get("fileName") ?? t("titles.detail");
  // where the recording was playing while it transcribed: the finished transcript goes on from there
  const listening = useRef<number | null>(null);

  const back = (
    <Link className="btn btn-secondary" to={paths.audioList}>
      {t("transcript.back")}
    </Link>
  );
  const notFound = <EmptyState icon="📄" text={t("transcript.notFound")} action={back} />;

  let body: ReactNode;
  if (fileId === null) body = notFound;
  else if (record.isPending) body = <Spinner />;
  else if (record.isError)
    body = isNotFound(record.error) ? notFound : <ErrorState onRetry={() => void record.refetch()} />;
  else if (!complete)
    body = (
      <DetailStatus
        record={record.data}
        transcribeDialog={transcribeDialog}
        onListening={(ms) => {
          listening.current = ms;
        }}
      />
    );
  else if (text.isPending) body = <Spinner />;
  else if (text.isError) body = isNotFound(text.error) ? notFound : <ErrorState onRetry={() => void text.refetch()} />;
  else {
    body = (
      <TranscriptView
        transcript={text.data}
        audioPath={record.data.audioPath}
        video={isVideo(record.data)}
        downloadHref={audioDownloadUrl(record.data.fileId)}
        hotWords={hotWords}
        startAt={parseStartAt(params.get("t")) ?? listening.current}
        initialQuery={params.get("q") ?? ""}
      />
    );
  }

  return (
    <>
      <div className="detail-head">
        <div className="detail-title">
          <Link to={paths.audioList} className="back-link" aria-label={t("transcript.back")}>
            ←
          </Link>
          <div>
            <h1 className="page-title" data-testid="detail-title" title={fileName}>
              {fileName}
            </h1>
            {record.data && (
              <p className="muted detail-meta">
                {t("transcript.meta", {
                  duration: formatDuration(record.data.timeLen),
                  time: formatDateTime(record.data.updateTime),
                })}
              </p>
            )}
          </div>
        </div>
        {record.data && (
          <div className="detail-actions">
            {/* shared links show the transcript: offered once there is one */}
            {complete && text.isSuccess && <ShareButton fileId={record.data.fileId} />}
            <ExportMenu
              fileId={record.data.fileId}
              fileName={record.data.fileName}
              audioHref={audioDownloadUrl(record.data.fileId)}
              transcribed={complete && text.isSuccess}
            />
          </div>
        )}
      </div>
      <div className="card detail-card">{body}</div>
    </>
  );
}
