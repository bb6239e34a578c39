import { MAX_TRANSCRIBE_SECONDS } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { formatDurationText, formatSize } from "@/lib/format.ts";
import { knownDuration, type UploadItem, uploads } from "../hooks/upload-store.ts";
import { tooLongToTranscribe } from "../lib/upload-rules.ts";
import "./upload-list.css";

export function uploadPercent(item: Pick<UploadItem, "loaded" | "total">): number {
  return item.total > 0 ? Math.min(100, Math.floor((item.loaded / item.total) * 100)) : 0;
}

/** Each upload: its bytes and percent while sending, cancel; retry after a failure or a cancel. */
export function UploadList({ items }: { items: UploadItem[] }) {
  const { t } = useTranslation();
  if (items.length === 0) return null;
  return (
    <section className="upload-list" aria-label={t("upload.listTitle")}>
      <h2 className="section-title">{t("upload.listTitle")}</h2>
      <ul>
        {items.map((item) => (
          <UploadRow key={item.id} item={item} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ item }: { item: UploadItem }) {
  const { t } = useTranslation();
  const percent = item.status === "done" ? 100 : uploadPercent(item);
  // Said as soon as the length is known: from the browser before the upload, else from the server.
  const tooLong = tooLongToTranscribe(knownDuration(item));
  return (
    <li className={`upload-item upload-${item.status}`} data-testid="upload-item">
      <div className="upload-item-head">
        <span className="upload-item-name" title={item.file.name}>
          {item.file.name}
        </span>
        <span className="upload-item-state">{t(`upload.${item.status === "done" ? "uploaded" : item.status}`)}</span>
      </div>
      {(item.status === "uploading" || item.status === "done") && !item.live && (
        <ProgressBar value={percent} label={t("upload.progressLabel", { name: item.file.name })} />
      )}
      {item.live && item.status === "uploading" && (
        <p className="muted" role="status" data-testid="upload-while-recording">
          {t("upload.whileRecording", { loaded: formatSize(item.loaded) })}
        </p>
      )}
      {item.status === "uploading" && item.resumedAt !== undefined && (
        <p className="muted" role="status" data-testid="upload-resumed">
          {t("upload.resumingAt", { percent: item.resumedAt })}
        </p>
      )}
      {item.autoTranscribe && !tooLong && (item.status === "uploading" || item.status === "done") && (
        <p className="muted" role="status" data-testid="upload-then-transcribe">
          {item.status === "done" ? t("upload.requestingTranscription") : t("upload.thenTranscribe")}
        </p>
      )}
      {tooLong && (
        <p className="upload-warning" role="status" data-testid="upload-too-long">
          {t("upload.tooLongToTranscribe", {
            duration: formatDurationText(t, knownDuration(item) ?? 0, "long"),
            limit: formatDurationText(t, MAX_TRANSCRIBE_SECONDS, "long"),
          })}
        </p>
      )}
      <div className="upload-item-foot">
        {!item.live && (
          <span className="muted" data-testid="upload-bytes">
            {t("upload.progress", {
              loaded: formatSize(item.status === "done" ? item.total : item.loaded),
              total: formatSize(item.total),
              percent,
            })}
          </span>
        )}
        {item.error && (
          <span className="error-text" role="alert">
            {item.error}
          </span>
        )}
        <span className="upload-item-actions">
          {item.status === "uploading" && (
            <Button size="sm" variant="secondary" onClick={() => uploads.cancel(item.id)}>
              {t("upload.cancel")}
            </Button>
          )}
          {(item.status === "failed" || item.status === "canceled") && (
            <>
              <Button size="sm" onClick={() => uploads.retry(item.id)}>
                {t("upload.retry")}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => uploads.remove(item.id)}>
                {t("upload.remove")}
              </Button>
            </>
          )}
        </span>
      </div>
    </li>
  );
}
