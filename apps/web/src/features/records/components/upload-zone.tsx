import { clsx } from "clsx";
import { type DragEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "../../../components/ui/button.tsx";
import type { Refusal } from "../hooks/upload-store.ts";
import { UPLOAD_ACCEPT, UPLOAD_EXTENSIONS } from "../lib/upload-rules.ts";

interface UploadZoneProps {
  /** hands the chosen files over; answers the ones refused before sending */
  onFiles: (files: File[]) => Refusal[];
  /** more buttons beside "choose files" (the recorder's) */
  extra?: ReactNode;
}

/** Drop zone and file picker; refused files (spec §5: extension, 1 GiB) are listed with the reason. */
export function UploadZone({ onFiles, extra }: UploadZoneProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [refused, setRefused] = useState<Refusal[]>([]);
  const exts = UPLOAD_EXTENSIONS.join("、");

  const take = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    setRefused(onFiles([...list]));
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    take(e.dataTransfer?.files ?? null);
  };

  return (
    <div>
      <section
        className={clsx("upload-zone", dragging && "dragging")}
        aria-label={t("upload.dropTitle")}
        data-testid="upload-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <div className="empty-icon" aria-hidden>
          ⇪
        </div>
        <p className="upload-zone-title">{dragging ? t("upload.dropActive") : t("upload.dropTitle")}</p>
        <p className="muted">{t("upload.formats", { exts })}</p>
        <div className="hero-actions">
          <Button onClick={() => input.current?.click()} data-testid="choose-files">
            {t("upload.choose")}
          </Button>
          {extra}
        </div>
        <input
          ref={input}
          type="file"
          multiple
          hidden
          accept={UPLOAD_ACCEPT}
          data-testid="file-input"
          aria-label={t("upload.choose")}
          onChange={(e) => {
            take(e.currentTarget.files);
            e.currentTarget.value = "";
          }}
        />
      </section>
      {refused.length > 0 && (
        <ul className="upload-refusals" role="alert" data-testid="upload-refusals">
          {refused.map((r) => (
            <li key={`${r.name}-${r.reason}`}>{t(`upload.${r.reason}`, { name: r.name })}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
