import type { TtsTask } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { taskPhase } from "@/lib/task-phase.ts";
import { useTtsProgress } from "../api/get-tts-progress.ts";
import "./tts-result.css";

/** The work just started: its progress (polled), then its player and download, or why it failed. */
export function TtsResult({ task, onRetry }: { task: TtsTask; onRetry: () => void }) {
  const { t } = useTranslation();
  const progress = useTtsProgress([task.taskId]);
  const item = progress.data?.find((p) => p.taskId === task.taskId);
  const status = item?.status ?? task.status;
  const phase = taskPhase(status);
  const value = phase === "done" ? 100 : (item?.progress ?? task.progress);
  const audioUrl = item?.audioUrl || task.audioUrl;
  const downloadUrl = item?.downloadUrl || task.downloadUrl;
  const errorMsg = item?.errorMsg ?? task.errorMsg;
  return (
    <section className="tts-result" aria-label={t("tts.resultTitle")} data-testid="tts-result" data-phase={phase}>
      <div className="tts-result-head">
        <h2 className="section-title">{t("tts.resultTitle")}</h2>
        <span className="muted tts-result-meta">
          {task.voiceName} · {t("tts.chars", { count: task.chars })}
        </span>
      </div>
      {(phase === "queued" || phase === "running") && (
        <div className="tts-result-progress" aria-live="polite">
          <span data-testid="tts-phase">
            {phase === "queued" ? t("tts.queued") : t("tts.running", { progress: value })}
          </span>
          <ProgressBar value={phase === "queued" ? 0 : value} label={t("tts.progressLabel")} />
        </div>
      )}
      {phase === "done" && audioUrl && (
        <AudioPlayer
          src={audioUrl}
          title={task.title}
          downloadUrl={downloadUrl}
          seconds={(item?.durationMs ?? task.durationMs) / 1000}
          testId="result-player"
        />
      )}
      {phase === "failed" && (
        <div className="tts-result-failed" role="alert">
          <p className="error-text">{errorMsg || t("tts.failed")}</p>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            {t("common.retry")}
          </Button>
        </div>
      )}
      {phase === "gone" && <p className="muted">{t("tts.gone")}</p>}
    </section>
  );
}
