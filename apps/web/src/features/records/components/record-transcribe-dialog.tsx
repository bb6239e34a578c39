import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "../../../components/ui/button.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import { useHotWords } from "../api/get-hot-words.ts";
import { acceptedFiles, useStartDictation } from "../api/start-dictation.ts";
import type { DictationOptions } from "../api/types.ts";
import { hasAvailableLanguage } from "../lib/languages.ts";
import { canTranscribe } from "../lib/status.ts";
import { HotWordsEditor } from "./hot-words-editor.tsx";
import { DEFAULT_OPTIONS, TranscribeOptions } from "./transcribe-options.tsx";

/** Options, then dictation_batch for the records that can be transcribed (never, or failed before). */
export function RecordTranscribeDialog({
  records,
  onClose,
  onDone,
}: {
  records: { fileId: number; fileStatus: number }[] | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<DictationOptions>(DEFAULT_OPTIONS);
  const config = useDictationConfig();
  const hotWords = useHotWords();
  const start = useStartDictation();
  const fileIds = (records ?? []).filter((r) => canTranscribe(r.fileStatus)).map((r) => r.fileId);

  const confirm = () =>
    start.mutate(
      { fileIds, options, hotWords: hotWords.data ?? [] },
      {
        onSuccess: ({ tasks }) => {
          if (acceptedFiles(tasks).length > 0) toast.success(t("transcribe.started"));
          onDone?.();
          onClose();
        },
      },
    );

  return (
    <Dialog
      open={records !== null}
      onOpenChange={(o) => !o && onClose()}
      title={t("transcribe.dialogTitle", { count: fileIds.length })}
      wide
    >
      {fileIds.length === 0 ? (
        <p>{t("transcribe.nothingToTranscribe")}</p>
      ) : (
        <>
          <TranscribeOptions value={options} onChange={setOptions} />
          <details className="hot-words-details">
            <summary>{t("hotWords.title")}</summary>
            <HotWordsEditor />
          </details>
        </>
      )}
      <div className="dialog-actions">
        <Button variant="secondary" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button
          onClick={confirm}
          disabled={fileIds.length === 0 || start.isPending || !hasAvailableLanguage(config.data)}
          data-testid="confirm-transcribe"
        >
          {start.isPending ? t("transcribe.starting") : t("transcribe.start")}
        </Button>
      </div>
    </Dialog>
  );
}
