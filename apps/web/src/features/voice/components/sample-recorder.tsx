import { type Lang, MY_VOICE_MAX_SECONDS, MY_VOICE_MIN_SECONDS } from "@yuelu/contracts/constants";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { AudioPlayer } from "@/components/ui/audio-player.tsx";
import { LevelMeter, RecorderButtons, RecordingBadge } from "@/components/ui/recorder-parts.tsx";
import { formatDuration } from "@/lib/format.ts";
import { type Take, useRecorder } from "../hooks/use-recorder.ts";
import { READING_PROMPTS } from "../lib/prompts.ts";
import "./sample-recorder.css";

/**
 * The guided recorder: three short sentences to read in the voice's language, a live level meter,
 * a timer against the 10–120 s bounds (it stops itself at 120 s), then the take to play back or
 * record again. A take under 10 s is kept for listening but is not offered for sending.
 */
export function SampleRecorder({ language, onTake }: { language: Lang; onTake: (take: Take | null) => void }) {
  const { t } = useTranslation();
  const rec = useRecorder(t("myVoice.sampleFileName"));
  const { take } = rec;
  useEffect(() => {
    onTake(take && take.seconds >= MY_VOICE_MIN_SECONDS ? take : null);
  }, [take, onTake]);

  const recording = rec.state.kind === "recording";
  const seconds = recording ? rec.elapsed / 1000 : (take?.seconds ?? 0);
  const tooShort = take !== null && take.seconds < MY_VOICE_MIN_SECONDS;
  const fill = Math.min(100, (seconds / MY_VOICE_MAX_SECONDS) * 100);
  const minMark = (MY_VOICE_MIN_SECONDS / MY_VOICE_MAX_SECONDS) * 100;
  return (
    <div
      className="vk-recorder"
      data-testid="sample-recorder"
      data-state={recording ? "recording" : take ? "take" : "idle"}
    >
      <div>
        <p className="field-label">{t("myVoice.readThese")}</p>
        <ol className="vk-prompts" lang={language === "zh" ? "zh-CN" : "en"}>
          {READING_PROMPTS[language].map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </div>
      <div className="vk-recorder-head">
        {recording ? (
          <RecordingBadge>{t("myVoice.recording")}</RecordingBadge>
        ) : (
          <span className="muted">
            {t("myVoice.bounds", { min: MY_VOICE_MIN_SECONDS, max: formatDuration(MY_VOICE_MAX_SECONDS) })}
          </span>
        )}
        <span className="vk-recorder-time" data-testid="recorder-time">
          {formatDuration(seconds)}
          <span className="muted"> / {formatDuration(MY_VOICE_MAX_SECONDS)}</span>
        </span>
      </div>
      <LevelMeter level={rec.level} label={t("myVoice.level")} />
      <div className="vk-timeline" aria-hidden>
        <span
          className="vk-timeline-fill"
          style={{ width: `${fill}%` }}
          data-short={seconds < MY_VOICE_MIN_SECONDS ? "1" : "0"}
        />
        <span className="vk-timeline-min" style={{ left: `${minMark}%` }} />
      </div>
      {recording && seconds < MY_VOICE_MIN_SECONDS && (
        <p className="muted vk-recorder-note">{t("myVoice.keepGoing", { min: MY_VOICE_MIN_SECONDS })}</p>
      )}
      {rec.state.kind === "error" && (
        <p className="error-text" role="alert" data-testid="recorder-error">
          {t(`myVoice.mic.${rec.state.problem}`)}
        </p>
      )}
      {tooShort && (
        <p className="error-text" role="alert" data-testid="take-too-short">
          {t("myVoice.tooShort", { seconds: Math.floor(take.seconds), min: MY_VOICE_MIN_SECONDS })}
        </p>
      )}
      {take && !recording && (
        <AudioPlayer src={take.url} title={t("myVoice.yourTake")} seconds={take.seconds} testId="take-player" />
      )}
      <RecorderButtons
        state={rec.state}
        labels={{
          start: take ? t("myVoice.retake") : t("myVoice.startRecording"),
          stop: t("myVoice.stop"),
          discard: t("myVoice.discard"),
        }}
        onStart={() => void rec.start()}
        onStop={rec.stop}
        startVariant={take ? "secondary" : "primary"}
      />
    </div>
  );
}
