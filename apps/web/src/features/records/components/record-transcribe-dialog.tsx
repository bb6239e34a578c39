import { MAX_TRANSCRIBE_SECONDS } from "@yuelu/contracts/constants";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { Dialog } from "@/components/ui/dialog.tsx";
import { useUserInfo } from "@/lib/account.ts";
import { formatDurationText } from "@/lib/format.ts";
import { canTranscribe } from "@/utils/file-status.ts";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import { useHotWords } from "../api/get-hot-words.ts";
import {
  acceptedFiles,
  chosenOptions,
  DEFAULT_OPTIONS,
  type DictationOptions,
  useStartDictation,
} from "../api/start-dictation.ts";
import { hasAvailableLanguage } from "../lib/languages.ts";
import { tooLongToTranscribe } from "../lib/upload-rules.ts";
import { HotWordsEditor } from "./hot-words-editor.tsx";
import { TranscribeOptions } from "./transcribe-options.tsx";

/** What the dialog needs of a record (the list's rows and the detail page's record alike). */
export interface TranscribableRecord {
  fileId: number;
  fileStatus: number;
  timeLen: number;
}

/**
 * Options, then dictation_batch for the records that can be transcribed: never transcribed or
 * failed before, and not longer than one transcription may be (those are named, not sent).
 */
export function RecordTranscribeDialog({
  records,
  onClose,
  onDone,
}: {
  records: TranscribableRecord[] | null;
  onClose: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const [options, setOptions] = useState<DictationOptions>(DEFAULT_OPTIONS);
  // asked for when the dialog opens, not with the page under it (My records' rows come first)
  const open = records !== null;
  const config = useDictationConfig({ enabled: open });
  const hotWords = useHotWords({ enabled: open });
  const start = useStartDictation();
  const info = useUserInfo();
  const waiting = (records ?? []).filter((r) => canTranscribe(r.fileStatus));
  const tooLong = waiting.filter((r) => tooLongToTranscribe(r.timeLen));
  const fileIds = waiting.filter((r) => !tooLongToTranscribe(r.timeLen)).map((r) => r.fileId);

  const chosen = chosenOptions(options);
  const confirm = () =>
    chosen &&
    start.mutate(
      { fileIds, options: chosen, hotWords: hotWords.data ?? [] },
      {
        onSuccess: ({ tasks }) => {
          if (acceptedFiles(tasks, { isMember: info.data?.isMember }).length > 0)
            toast.success(t("transcribe.started"));
          onDone?.();
          onClose();
        },
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t("transcribe.dialogTitle", { count: fileIds.length })}
      wide
    >
      {tooLong.length > 0 && (
        <p className="error-text" role="status" data-testid="transcribe-too-long">
          {t("transcribe.someTooLong", {
            count: tooLong.length,
            limit: formatDurationText(t, MAX_TRANSCRIBE_SECONDS, "long"),
          })}
        </p>
      )}
      {fileIds.length === 0 ? (
        tooLong.length === 0 && <p>{t("transcribe.nothingToTranscribe")}</p>
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
          disabled={fileIds.length === 0 || start.isPending || !hasAvailableLanguage(config.data) || !chosen}
          data-testid="confirm-transcribe"
        >
          {start.isPending ? t("transcribe.starting") : t("transcribe.start")}
        </Button>
      </div>
    </Dialog>
  );
}
