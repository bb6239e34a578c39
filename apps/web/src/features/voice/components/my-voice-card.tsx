import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { Button } from "@/components/ui/button.tsx";
import { PhaseChip } from "@/components/ui/phase-chip.tsx";
import { ProgressBar } from "@/components/ui/states.tsx";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { taskPhase } from "@/lib/task-phase.ts";
import type { MyVoice, VoiceProgressItem } from "../api/types.ts";
import { MethodBadge } from "./method-badge.tsx";

/**
 * One of my voices: its name, status (with the analysis' progress), what was measured of the
 * sample (median pitch, range, speaking rate), the library voice it is matched from; its preview
 * and my sample to play; rename, re-train and delete.
 */
export function MyVoiceCard({
  voice,
  progress,
  onRename,
  onRetrain,
  onDelete,
}: {
  voice: MyVoice;
  progress?: VoiceProgressItem;
  onRename: () => void;
  onRetrain: () => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<"preview" | "sample" | null>(null);
  const status = progress?.status ?? voice.status;
  const phase = taskPhase(status);
  const value = progress?.progress ?? voice.progress;
  const errorMsg = progress?.errorMsg || voice.errorMsg;
  const p = voice.profile;
  const hz = (n: number) => t("myVoice.hz", { value: Math.round(n) });
  const num = (n: number) => n.toLocaleString(i18n.language, { maximumFractionDigits: 1 });
  const ready = phase === "done";
  return (
    <li className="vk-card-mine" data-testid="my-voice" data-voice-id={voice.voiceId} data-phase={phase}>
      <div className="vk-card-mine-head">
        <span className="vk-avatar" aria-hidden>
          {[...voice.name][0] ?? "♪"}
        </span>
        <div className="vk-card-mine-title">
          <strong title={voice.name}>{voice.name}</strong>
          <span className="vk-card-mine-sub">
            <MethodBadge method={voice.method} />
            <PhaseChip phase={phase} testId="voice-status">
              {phase === "running" ? t("myVoice.analysing", { progress: value }) : t(`myVoice.phase.${phase}`)}
            </PhaseChip>
          </span>
        </div>
      </div>
      {(phase === "queued" || phase === "running") && (
        <ProgressBar value={phase === "queued" ? 0 : value} label={t("myVoice.progressLabel", { name: voice.name })} />
      )}
      {phase === "failed" && (
        <p className="error-text" role="alert" data-testid="voice-error">
          {errorMsg || t("myVoice.failed")}
        </p>
      )}
      <dl className="vk-profile">
        {voice.method === "match" && voice.baseVoiceName && (
          <div>
            <dt>{t("myVoice.baseVoice")}</dt>
            <dd data-testid="base-voice">{voice.baseVoiceName}</dd>
          </div>
        )}
        {p && (
          <>
            <div>
              <dt>{t("myVoice.medianPitch")}</dt>
              <dd data-testid="median-pitch">{hz(p.medianHz)}</dd>
            </div>
            <div>
              <dt>{t("myVoice.range")}</dt>
              <dd>
                {Math.round(p.lowHz)}–{hz(p.highHz)}
              </dd>
            </div>
            <div>
              <dt>{t("myVoice.rate")}</dt>
              <dd>{t("myVoice.rateValue", { value: num(p.syllablesPerSecond) })}</dd>
            </div>
          </>
        )}
        <div>
          <dt>{t("myVoice.sampleLength")}</dt>
          <dd>{formatDuration(voice.sampleSeconds)}</dd>
        </div>
        <div>
          <dt>{t("myVoice.language")}</dt>
          <dd>{t(`voiceKit.lang.${voice.language}`)}</dd>
        </div>
        <div>
          <dt>{t("myVoice.updated")}</dt>
          <dd>{formatDateTime(voice.updateTime).slice(0, 16)}</dd>
        </div>
      </dl>
      <div className="vk-card-mine-actions">
        <Button
          size="sm"
          variant={open === "preview" ? "primary" : "secondary"}
          disabled={!ready || !voice.previewUrl}
          aria-expanded={open === "preview"}
          onClick={() => setOpen(open === "preview" ? null : "preview")}
          data-testid="voice-preview"
        >
          <span aria-hidden>▶</span> {t("myVoice.preview")}
        </Button>
        <Button
          size="sm"
          variant={open === "sample" ? "primary" : "secondary"}
          disabled={!voice.sampleUrl}
          aria-expanded={open === "sample"}
          onClick={() => setOpen(open === "sample" ? null : "sample")}
          data-testid="voice-sample"
        >
          <span aria-hidden>▶</span> {t("myVoice.mySample")}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onRename}
          aria-label={t("myVoice.renameNamed", { name: voice.name })}
          data-testid="voice-rename"
        >
          {t("voiceKit.rename")}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          onClick={onRetrain}
          disabled={phase === "queued" || phase === "running"}
          aria-label={t("myVoice.retrainNamed", { name: voice.name })}
          data-testid="voice-retrain"
        >
          {t("myVoice.retrain")}
        </Button>
        <Button
          size="sm"
          variant="ghost"
          className="danger-text"
          onClick={onDelete}
          aria-label={t("myVoice.deleteNamed", { name: voice.name })}
          data-testid="voice-delete"
        >
          {t("voiceKit.delete")}
        </Button>
      </div>
      {open === "preview" && voice.previewUrl && (
        <AudioPlayer
          src={voice.previewUrl}
          title={t("myVoice.previewOf", { name: voice.name })}
          autoPlay
          testId="preview-player"
        />
      )}
      {open === "sample" && voice.sampleUrl && (
        <AudioPlayer
          src={voice.sampleUrl}
          title={t("myVoice.sampleOf", { name: voice.name })}
          seconds={voice.sampleSeconds}
          autoPlay
          testId="sample-player"
        />
      )}
    </li>
  );
}
