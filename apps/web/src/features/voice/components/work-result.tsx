import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { Button } from "@/components/ui/button.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { apiBase } from "@/config/env.ts";
import { taskPhase } from "@/lib/task-phase.ts";
import type { VoiceWork } from "../api/types.ts";
import { useWorkProgress } from "../api/works.ts";
import { BeforeAfterPlayer } from "./before-after-player.tsx";
import { PianoRoll } from "./piano-roll.tsx";

/**
 * The work just started: its progress (polled), then its player and download — a converted song
 * with its original, before and after — or why it failed, with a retry.
 */
export function WorkResult({ work, onRetry }: { work: VoiceWork; onRetry: () => void }) {
  const { t } = useTranslation();
  const progress = useWorkProgress(work.kind, [work.workId]);
  const item = progress.data?.find((p) => p.id === work.workId);
  const phase = taskPhase(item?.status ?? work.status);
  const value = phase === "done" ? 100 : (item?.progress ?? work.progress);
  // the urls come with the list once done; a progress answer carries none: build them from the id
  const done = phase === "done";
  const audioUrl = work.audioUrl || fileUrl(work.workId, "result", true);
  const downloadUrl = work.downloadUrl || fileUrl(work.workId, "result", false);
  const originalUrl = work.originalUrl || fileUrl(work.workId, "original", true);
  return (
    <section className="vk-result" aria-label={t("voiceKit.resultTitle")} data-testid="work-result" data-phase={phase}>
      <div className="vk-result-head">
        <h2 className="section-title">{t("voiceKit.resultTitle")}</h2>
        <span className="muted">
          {work.title} · {work.voiceName}
        </span>
      </div>
      {(phase === "queued" || phase === "running") && (
        <div className="vk-result-progress" aria-live="polite">
          <span data-testid="work-phase">
            {phase === "queued" ? t("voiceKit.queued") : t(`voiceKit.making.${work.kind}`, { progress: value })}
          </span>
          <ProgressBar value={phase === "queued" ? 0 : value} label={t("voiceKit.progressLabel")} />
        </div>
      )}
      {done &&
        (work.kind === "convert" ? (
          <BeforeAfterPlayer
            before={originalUrl}
            after={audioUrl}
            title={work.title}
            downloadUrl={downloadUrl}
            testId="result-player"
          />
        ) : (
          <AudioPlayer
            src={audioUrl}
            title={work.title}
            downloadUrl={downloadUrl}
            seconds={work.durationMs / 1000}
            testId="result-player"
          />
        ))}
      {done && work.kind === "sing" && work.notes.length > 0 && (
        <PianoRoll
          notes={work.notes}
          words={work.notes.map((n) => ({ text: n.syllable }))}
          bpm={work.bpm}
          tempo={work.tempo}
          testId="result-roll"
        />
      )}
      {phase === "failed" && (
        <div className="vk-result-failed" role="alert">
          <p className="error-text">{item?.errorMsg || work.errorMsg || t("voiceKit.failed")}</p>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            {t("common.retry")}
          </Button>
        </div>
      )}
      {phase === "gone" && <p className="muted">{t("voiceKit.gone")}</p>}
    </section>
  );
}

/** GET /voice/works/file: the result, the original or the vocals; inline plays in the page. */
export function fileUrl(workId: number, part: "result" | "original" | "vocals", inline: boolean): string {
  const q = new URLSearchParams({ workId: String(workId), part });
  if (inline) q.set("inline", "1");
  return `${apiBase()}/voice/works/file?${q}`;
}
