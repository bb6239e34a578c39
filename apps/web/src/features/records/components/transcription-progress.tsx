import type { UploadResult } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { ProgressBar } from "@/components/ui/states.tsx";
import { progressById, useTranscriptionProgress } from "@/hooks/use-transcription-progress.ts";
import { statusKind, statusLabel } from "@/utils/file-status.ts";
import { detailHref } from "../lib/links.ts";
import "./status-badge.css";
import "./upload-list.css";

/** Progress of the files sent for transcription (polled every 2 s until complete or failed). */
export function TranscriptionProgress({ records }: { records: UploadResult[] }) {
  const { t } = useTranslation();
  const progress = useTranscriptionProgress(records.map((r) => r.fileId));
  const byId = progressById(progress.data);
  if (records.length === 0) return null;
  return (
    <section className="transcription-progress" aria-label={t("transcribe.progressTitle")}>
      <h2 className="section-title">{t("transcribe.progressTitle")}</h2>
      <ul>
        {records.map((r) => {
          const p = byId.get(r.fileId);
          const fileStatus = p?.fileStatus ?? FileStatus.InQueue;
          const value = fileStatus === FileStatus.Complete ? 100 : (p?.progress ?? 0);
          return (
            <li key={r.fileId} className="upload-item" data-testid="transcription-item">
              <div className="upload-item-head">
                <span className="upload-item-name" title={r.fileName}>
                  {r.fileName}
                </span>
                <span className={`status status-${statusKind(fileStatus)}`} data-testid="transcription-status">
                  {statusLabel(t, fileStatus, value)}
                </span>
              </div>
              {fileStatus !== FileStatus.Failed && (
                <ProgressBar value={value} label={`${r.fileName} ${t("transcribe.progressTitle")}`} />
              )}
              {fileStatus === FileStatus.Failed && p?.errorMsg && (
                <p className="error-text" role="alert">
                  {p.errorMsg}
                </p>
              )}
              {fileStatus === FileStatus.Complete && (
                <Link className="btn btn-primary btn-sm" to={detailHref(r)} data-testid="open-transcript">
                  {t("transcribe.viewText")}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
