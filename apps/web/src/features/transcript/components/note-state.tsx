import type { NoteTask } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { useCancelNote } from "../api/create-note.ts";
import { isNoteDone, isNoteFailed, isNoteRunning } from "../lib/notes.ts";
import "./ai-note.css";

/**
 * Where a note stands, under the button that made it: progress and Cancel while it is queued or running; why
 * it failed (or that it was stopped); that the transcript changed after it was made, with Regenerate.
 * Nothing for a note that is done and current.
 */
export function NoteState({
  fileId,
  task,
  onRegenerate,
  regenerating = false,
}: {
  fileId: number;
  task: NoteTask | null;
  onRegenerate?: () => void;
  regenerating?: boolean;
}) {
  const { t } = useTranslation();
  const cancel = useCancelNote(fileId);
  if (!task) return null;
  if (isNoteRunning(task)) {
    const queued = task.status === 3;
    return (
      <div className="note-state" data-testid={`note-${task.kind}-running`} aria-live="polite">
        <span>{queued ? t("notes.queued") : t("notes.running", { progress: task.progress })}</span>
        <div className="note-state-row">
          <ProgressBar value={queued ? 0 : task.progress} label={t("notes.progressLabel")} />
          <Button size="sm" variant="ghost" disabled={cancel.isPending} onClick={() => cancel.mutate(task.taskId)}>
            {t("common.cancel")}
          </Button>
        </div>
      </div>
    );
  }
  if (isNoteFailed(task)) {
    const stopped = task.errorReason === "cancelled";
    return (
      <div className="note-state" data-testid={`note-${task.kind}-failed`}>
        <p className={stopped ? "muted" : "error-text"} role={stopped ? undefined : "alert"}>
          {stopped ? t("notes.cancelled") : t("notes.failed", { reason: task.errorText ?? "" })}
        </p>
      </div>
    );
  }
  if (isNoteDone(task) && task.stale) {
    return (
      <div className="note-state note-state-row" data-testid={`note-${task.kind}-stale`}>
        <span className="note-stale">{t("notes.stale")}</span>
        {onRegenerate && (
          <Button size="sm" variant="secondary" disabled={regenerating} onClick={onRegenerate}>
            {t("notes.regenerate")}
          </Button>
        )}
      </div>
    );
  }
  return null;
}
