import {
  MAX_TRANSCRIBE_SECONDS,
  MAX_UPLOAD_BYTES,
  MAX_UPLOAD_SECONDS,
  UPLOAD_EXTENSIONS,
} from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { type DragEvent, type ReactNode, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { StateIcon } from "@/components/ui/states.tsx";
import { formatDurationText } from "@/lib/format.ts";
import type { Refusal } from "../hooks/upload-store.ts";
import { UPLOAD_ACCEPT } from "../lib/upload-rules.ts";
import "./upload-zone.css";

interface UploadZoneProps {
  /** hands the chosen files over; answers the ones refused before sending */
  onFiles: (files: File[]) => Promise<Refusal[]>;
  /** uploads a file refused as longer than a transcription may be, which the user keeps anyway (untranscribed) */
  onKeepLong?: (file: File) => Promise<Refusal[]>;
  /** more buttons beside "choose files" (the recorder's) */
  extra?: ReactNode;
}

/**
 * Drop zone and file picker. It states the limits once, both of them: what may be uploaded (1 GB,
 * 5 hours) and what one transcription takes (3 hours), from the contracts' numbers. Refused files
 * (spec §5: extension, size, length) are listed with the reason; one longer than a transcription may
 * be (issue 43: refused before its upload, not after) can still be uploaded knowingly, to keep it.
 */
export function UploadZone({ onFiles, onKeepLong, extra }: UploadZoneProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [checking, setChecking] = useState(0);
  const [refused, setRefused] = useState<Refusal[]>([]);

  const take = async (list: File[]) => {
    if (list.length === 0) return;
    setChecking((n) => n + 1);
    try {
      setRefused(await onFiles(list));
    } finally {
      setChecking((n) => n - 1);
    }
  };
  const keep = async (refusal: Refusal) => {
    if (!refusal.file || !onKeepLong) return;
    setRefused((list) => list.filter((r) => r !== refusal));
    const still = await onKeepLong(refusal.file);
    if (still.length > 0) setRefused((list) => [...list, ...still]);
  };
  const limits = {
    size: `${MAX_UPLOAD_BYTES / 1024 ** 3} GB`,
    limit: formatDurationText(t, MAX_TRANSCRIBE_SECONDS, "long"),
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void take([...(e.dataTransfer?.files ?? [])]);
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
        <StateIcon>⇪</StateIcon>
        <p className="upload-zone-title">{dragging ? t("upload.dropActive") : t("upload.dropTitle")}</p>
        <p className="muted">{t("upload.formats", { exts: UPLOAD_EXTENSIONS.join(t("common.listSeparator")) })}</p>
        <ul className="upload-limits" data-testid="upload-limits">
          <li>
            {t("upload.limitUpload", {
              size: limits.size,
              duration: formatDurationText(t, MAX_UPLOAD_SECONDS, "long"),
            })}
          </li>
          <li>{t("upload.limitTranscribe", { duration: limits.limit })}</li>
        </ul>
        <div className="upload-zone-actions">
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
            void take([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = "";
          }}
        />
      </section>
      {checking > 0 && (
        <p className="muted upload-checking" role="status">
          {t("upload.checking")}
        </p>
      )}
      {refused.length > 0 && (
        <ul className="upload-refusals" role="alert" data-testid="upload-refusals">
          {refused.map((r) => (
            <li key={`${r.name}-${r.reason}`} data-testid={`refused-${r.reason}`}>
              {r.reason === "overTranscribeLimit"
                ? t("upload.overTranscribeLimit", {
                    name: r.name,
                    duration: formatDurationText(t, r.duration ?? 0, "long"),
                    limit: limits.limit,
                  })
                : t(`upload.${r.reason}`, {
                    name: r.name,
                    size: limits.size,
                    duration: formatDurationText(t, MAX_UPLOAD_SECONDS, "long"),
                  })}
              {r.file && onKeepLong && (
                <>
                  {" "}
                  <Button size="sm" variant="ghost" onClick={() => void keep(r)} data-testid="keep-long">
                    {t("upload.keepLong")}
                  </Button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
