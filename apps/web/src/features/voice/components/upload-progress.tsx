import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { formatSize, percent } from "@/lib/format.ts";

/** A file on its way: the share sent, in bytes too, and a cancel. */
export function UploadProgress({ loaded, total, onCancel }: { loaded: number; total: number; onCancel?: () => void }) {
  const { t } = useTranslation();
  const value = percent(loaded, total);
  return (
    <div className="vk-upload" aria-live="polite" data-testid="upload-progress">
      <div className="vk-upload-head">
        <span>{t("voiceKit.uploading", { progress: value })}</span>
        <span className="muted">
          {formatSize(loaded)} / {formatSize(total)}
        </span>
        {onCancel && (
          <Button size="sm" variant="ghost" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
        )}
      </div>
      <ProgressBar value={value} label={t("voiceKit.uploadLabel")} />
    </div>
  );
}
