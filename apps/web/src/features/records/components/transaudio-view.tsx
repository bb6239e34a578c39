import { useQueryClient } from "@tanstack/react-query";
import type { UploadResult } from "@yuelu/contracts";
import { FileStatus } from "@yuelu/contracts/constants";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { toast } from "sonner";
import { Button } from "@/components/ui/button.tsx";
import { progressById, useTranscriptionProgress } from "@/hooks/use-transcription-progress.ts";
import { useUserInfo } from "@/lib/account.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { forgetRecording } from "@/lib/recording-store.ts";
import { useSession } from "@/lib/session.ts";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import { useHotWords } from "../api/get-hot-words.ts";
import { useMenus } from "../api/get-menus.ts";
import {
  acceptedFiles,
  chosenOptions,
  DEFAULT_OPTIONS,
  type DictationOptions,
  useStartDictation,
} from "../api/start-dictation.ts";
import { transcribeDue } from "../hooks/auto-transcribe.ts";
import { knownDuration, uploads, useUploadItems } from "../hooks/upload-store.ts";
import { hasAvailableLanguage, lastLanguage, pickLanguage, preferredLanguages } from "../lib/languages.ts";
import { detailHref } from "../lib/links.ts";
import { tooLongToTranscribe } from "../lib/upload-rules.ts";
import { HotWordsEditor } from "./hot-words-editor.tsx";
import { RecorderPanel } from "./recorder-panel.tsx";
import { RecoveredRecordings } from "./recovered-recordings.tsx";
import { TranscribeOptions } from "./transcribe-options.tsx";
import { TranscriptionProgress } from "./transcription-progress.tsx";
import { UploadList } from "./upload-list.tsx";
import { UploadZone } from "./upload-zone.tsx";
import "./transaudio-view.css";

/**
 * /transaudio: upload (drop, pick or record), then the transcription options for what was
 * uploaded, then its progress with a link to the transcript. A file longer than one transcription
 * may be is refused before its upload when the browser can read its length (the user may keep it
 * anyway, untranscribed); otherwise it is uploaded but not offered for transcription (its item says why).
 *
 * Recording (issue 43) is one click: "start recording" opens the recorder above the drop zone, in view,
 * and starts it; the transcription options show with it, so "stop and transcribe" uploads the recording
 * and asks for its transcription with them in one go (hooks/auto-transcribe.ts), its progress below.
 */
export function TransaudioView() {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const client = useQueryClient();
  uploads.claim(session.userId);
  const items = useUploadItems();
  /** the recorder is open; `autoStart`: opened by the page's "start recording", which it starts */
  const [recorder, setRecorder] = useState<{ autoStart: boolean } | null>(null);
  const [menuId, setMenuId] = useState("");
  const menus = useMenus();
  const [options, setOptions] = useState<DictationOptions>(DEFAULT_OPTIONS);
  const config = useDictationConfig();
  const hotWords = useHotWords();
  const start = useStartDictation();
  const info = useUserInfo();

  // Kept after leaving the page: an upload that finishes later still refreshes My records, and one that was
  // stopped with "stop and transcribe" is still sent for transcription.
  useEffect(() => {
    uploads.onUploaded(() => {
      void client.invalidateQueries({ queryKey: queryKeys.records.lists() });
      void transcribeDue(client);
    });
    // what became due while no page listened
    void transcribeDue(client);
  }, [client]);

  const ready: UploadResult[] = items
    .filter(
      (i) =>
        i.status === "done" && i.record && !i.submitted && !i.autoTranscribe && !tooLongToTranscribe(knownDuration(i)),
    )
    .map((i) => i.record!);
  const submitted = items.filter((i) => i.submitted && i.record).map((i) => i.record!);
  // the same query as TranscriptionProgress (shared cache): a recording's transcript replaces its live captions
  const progress = progressById(useTranscriptionProgress(submitted.map((r) => r.fileId)).data);
  const transcriptOf = (fileName: string) => {
    const done = submitted.find(
      (r) => r.fileName === fileName && progress.get(r.fileId)?.fileStatus === FileStatus.Complete,
    );
    return done ? detailHref(done) : undefined;
  };

  const chosen = chosenOptions(options);
  // the language the options will preselect (they do so once shown): the captions follow it from the start
  const uiLang = i18n.language.startsWith("en") ? "en" : "zh";
  const language = options.language ?? pickLanguage(config.data, null, preferredLanguages(lastLanguage(), uiLang));
  const transcribe = () => {
    if (!chosen) return;
    const fileIds = ready.map((r) => r.fileId);
    start.mutate(
      { fileIds, options: chosen, hotWords: hotWords.data ?? [] },
      {
        onSuccess: ({ tasks }) => {
          const accepted = acceptedFiles(tasks, { isMember: info.data?.isMember });
          uploads.markSubmitted(accepted);
          if (accepted.length > 0) toast.success(t("transcribe.started"));
        },
      },
    );
  };

  const settings = (ready.length > 0 || recorder) && (
    <section className="transcribe-panel" aria-label={t("transcribe.optionsTitle")}>
      <h2 className="section-title">{t("transcribe.optionsTitle")}</h2>
      <TranscribeOptions value={options} onChange={setOptions} />
      <details className="hot-words-details">
        <summary>{t("hotWords.title")}</summary>
        <HotWordsEditor />
      </details>
      {ready.length > 0 && (
        <Button
          size="lg"
          onClick={transcribe}
          disabled={start.isPending || !hasAvailableLanguage(config.data) || !chosen}
          data-testid="start-transcription"
        >
          {start.isPending ? t("transcribe.starting") : t("transcribe.start")}
        </Button>
      )}
    </section>
  );

  return (
    <div className="transaudio">
      {recorder && (
        <RecorderPanel
          userId={session.userId}
          language={language}
          autoStart={recorder.autoStart}
          canTranscribe={chosen !== null && hasAvailableLanguage(config.data)}
          onClose={() => setRecorder(null)}
          transcriptOf={transcriptOf}
          onKept={(kept, liveSessionId) =>
            uploads.addRecording(
              kept,
              menuId || null,
              () => void forgetRecording(kept.id).catch(() => {}),
              liveSessionId,
            )
          }
          onDiscarded={(keptId) => uploads.recordingDiscarded(keptId)}
          onRecorded={(file, keptId, liveSessionId, andTranscribe) => {
            // the settings as they are when the user stops
            const autoTranscribe =
              andTranscribe && chosen ? { options: chosen, hotWords: hotWords.data ?? [] } : undefined;
            // uploaded while it was made: only the end is left to send
            if (keptId && uploads.recordingStopped(keptId, file, autoTranscribe)) return;
            void uploads.add([file], menuId || null, {
              ...(keptId ? { onConfirmed: () => void forgetRecording(keptId).catch(() => {}) } : {}),
              ...(liveSessionId ? { liveSessionId } : {}),
              // a recording is kept whatever its length: it exists nowhere else
              keepLong: true,
              ...(autoTranscribe ? { autoTranscribe } : {}),
            });
          }}
        />
      )}
      {recorder && settings}
      <UploadZone
        onFiles={(files) => uploads.add(files, menuId || null)}
        onKeepLong={(file) => uploads.add([file], menuId || null, { keepLong: true })}
        extra={
          !recorder && (
            <Button variant="secondary" onClick={() => setRecorder({ autoStart: true })} data-testid="record-now">
              {t("common.startRecording")}
            </Button>
          )
        }
      />
      {(menus.data ?? []).length > 0 && (
        <label className="option-inline upload-folder">
          <span className="option-label">{t("upload.folder")}</span>
          <select className="input select" value={menuId} onChange={(e) => setMenuId(e.target.value)}>
            <option value="">{t("records.noFolder")}</option>
            {(menus.data ?? []).map((m) => (
              <option key={m.menuId} value={m.menuId}>
                {m.menuName}
              </option>
            ))}
          </select>
        </label>
      )}
      <RecoveredRecordings
        userId={session.userId}
        onUpload={(file, confirmed, kept) => uploads.addRecovered(file, kept, menuId || null, confirmed)}
      />
      <UploadList items={items} />
      {!recorder && settings}
      <TranscriptionProgress records={submitted} />
    </div>
  );
}
