import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { formatDuration } from "@/lib/format.ts";
import {
  canKeepRecordings,
  forgetRecording,
  keptRecordings,
  recordingFile,
  type StoredRecording,
} from "@/lib/recording-store.ts";

/**
 * Recordings this browser kept (IndexedDB) that never reached the server — the tab was reloaded or
 * closed, the browser crashed, the upload did not finish: each is offered back with its length, to
 * upload (it resumes where an earlier upload of it stopped) or to discard. Read once, when
 * /transaudio opens; a recording being made in this tab is not among them yet.
 */
export function RecoveredRecordings({
  userId,
  onUpload,
}: {
  userId: string;
  /** hands the recording over; `confirmed` removes the local copy once the server has the record */
  /** `recording` carries the upload it began while it was made (its uploadUrl), to go on from there */
  onUpload: (file: File, confirmed: () => void, recording: StoredRecording) => void;
}) {
  const { t } = useTranslation();
  const [left, setLeft] = useState<StoredRecording[]>([]);

  useEffect(() => {
    if (!canKeepRecordings()) return;
    let live = true;
    keptRecordings(userId).then(
      (found) => live && setLeft(found),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [userId]);

  const drop = (id: string) => setLeft((list) => list.filter((r) => r.id !== id));
  const upload = async (recording: StoredRecording) => {
    drop(recording.id);
    onUpload(await recordingFile(recording), () => void forgetRecording(recording.id).catch(() => {}), recording);
  };
  const discard = async (recording: StoredRecording) => {
    drop(recording.id);
    await forgetRecording(recording.id).catch(() => {});
  };

  if (left.length === 0) return null;
  return (
    <section className="recovered-recordings" aria-label={t("recorder.recoverTitle")} data-testid="recovered">
      {left.map((recording) => (
        <div key={recording.id} className="recovered-recording" role="alert" data-testid="recovered-recording">
          <strong>{t("recorder.recoverTitle")}</strong>
          <p>
            {t("recorder.recoverText", {
              duration: formatDuration(recording.durationMs / 1000),
              name: recording.fileName,
            })}
          </p>
          <div className="recorder-actions">
            <Button onClick={() => void upload(recording)} data-testid="recover-upload">
              {t("recorder.recoverUpload")}
            </Button>
            <Button variant="ghost" onClick={() => void discard(recording)} data-testid="recover-discard">
              {t("recorder.recoverDiscard")}
            </Button>
          </div>
        </div>
      ))}
    </section>
  );
}
