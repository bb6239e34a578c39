import { type ChangeEvent, type MouseEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { claimAudio, releaseAudio } from "@/lib/exclusive-audio.ts";
import { formatDuration } from "@/lib/format.ts";
import { useAudioPeaks } from "../hooks/use-audio-peaks.ts";
import "@/components/ui/audio-player.css";
import "./before-after-player.css";

const BUCKETS = 240;
type Side = "before" | "after";

/**
 * A converted song beside its original: one play button, one playhead, and a switch between before
 * and after that keeps the place (the other recording takes over at the same second). The waveform
 * of what plays is drawn from the decoded audio; a click on it seeks.
 */
export function BeforeAfterPlayer({
  before,
  after,
  title,
  downloadUrl,
  testId = "before-after",
}: {
  before: string;
  after: string;
  title: string;
  downloadUrl?: string;
  testId?: string;
}) {
  const { t } = useTranslation();
  const refs = { before: useRef<HTMLAudioElement>(null), after: useRef<HTMLAudioElement>(null) };
  const [side, setSide] = useState<Side>("after");
  const sideRef = useRef<Side>("after");
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const [failed, setFailed] = useState(false);
  const peaks = { before: useAudioPeaks(before, BUCKETS), after: useAudioPeaks(after, BUCKETS) };
  const shown = peaks[side].data?.peaks ?? null;
  const max = duration > 0 ? duration : (peaks[side].data?.seconds ?? 0);

  useEffect(() => {
    const a = refs.before.current;
    const b = refs.after.current;
    return () => {
      for (const el of [a, b]) if (el) releaseAudio(el);
    };
  }, [refs.before, refs.after]);

  const active = () => refs[sideRef.current].current;

  const toggle = () => {
    const audio = active();
    if (!audio) return;
    if (audio.paused) {
      setFailed(false);
      audio.play().catch(() => setFailed(true));
    } else audio.pause();
  };

  const switchTo = (next: Side) => {
    if (next === sideRef.current) return;
    const from = active();
    const to = refs[next].current;
    sideRef.current = next;
    setSide(next);
    if (!from || !to) return;
    const wasPlaying = !from.paused;
    to.currentTime = Math.min(from.currentTime, Number.isFinite(to.duration) ? to.duration : from.currentTime);
    from.pause();
    if (wasPlaying) to.play().catch(() => setFailed(true));
    if (Number.isFinite(to.duration) && to.duration > 0) setDuration(to.duration);
  };

  const seekTo = (seconds: number) => {
    const audio = active();
    if (!audio) return;
    audio.currentTime = Math.max(0, Math.min(seconds, max || seconds));
    setTime(audio.currentTime);
  };
  const seek = (e: ChangeEvent<HTMLInputElement>) => seekTo(Number(e.target.value));
  const clickWave = (e: MouseEvent<SVGSVGElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    if (box.width > 0 && max > 0) seekTo(((e.clientX - box.left) / box.width) * max);
  };

  const label = playing ? t("player.pauseNamed", { title }) : t("player.playNamed", { title });
  const at = max > 0 ? Math.min(1, time / max) : 0;
  const audioFor = (s: Side, src: string) => (
    // biome-ignore lint/a11y/useMediaCaption: a song, named beside its player
    <audio
      key={s}
      ref={refs[s]}
      src={src}
      preload="metadata"
      data-side={s}
      onPlay={(e) => {
        claimAudio(e.currentTarget);
        if (sideRef.current === s) setPlaying(true);
      }}
      onPause={() => sideRef.current === s && setPlaying(false)}
      onEnded={() => sideRef.current === s && setPlaying(false)}
      onTimeUpdate={(e) => sideRef.current === s && setTime(e.currentTarget.currentTime)}
      onLoadedMetadata={(e) => {
        const d = e.currentTarget.duration;
        if (sideRef.current === s && Number.isFinite(d)) setDuration(d);
      }}
      onError={() => sideRef.current === s && setFailed(true)}
    />
  );

  return (
    <div className="ab-player" data-testid={testId} data-side={side} data-playing={playing ? "1" : "0"}>
      <div className="vk-segments ab-switch" role="radiogroup" aria-label={t("convert.compare")}>
        {(["before", "after"] as const).map((s) => (
          <label key={s} className="vk-segment" data-checked={side === s ? "1" : "0"}>
            <input
              type="radio"
              name={`${testId}-side`}
              checked={side === s}
              onChange={() => switchTo(s)}
              data-testid={`ab-${s}`}
            />
            <span>{t(`convert.side.${s}`)}</span>
          </label>
        ))}
      </div>
      <div className="ab-wave-box">
        {shown ? (
          <svg
            className="ab-wave"
            viewBox={`0 0 ${shown.length} 100`}
            preserveAspectRatio="none"
            aria-hidden
            onClick={clickWave}
            data-testid="waveform"
          >
            {shown.map((p, i) => {
              const h = Math.max(1.5, p * 96);
              return (
                <rect
                  // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of bars
                  key={i}
                  x={i + 0.15}
                  y={50 - h / 2}
                  width={0.7}
                  height={h}
                  className={i / shown.length < at ? "ab-bar played" : "ab-bar"}
                />
              );
            })}
            <line x1={at * shown.length} x2={at * shown.length} y1={0} y2={100} className="ab-head" />
          </svg>
        ) : (
          <div className="ab-wave ab-wave-empty muted" aria-hidden>
            {peaks[side].isError ? "" : t("convert.drawing")}
          </div>
        )}
      </div>
      <div className="audio-player ab-controls">
        <button
          type="button"
          className="audio-player-toggle"
          aria-label={label}
          title={label}
          onClick={toggle}
          data-testid="player-toggle"
        >
          <span aria-hidden>{playing ? "❚❚" : "▶"}</span>
        </button>
        <input
          className="audio-player-seek"
          type="range"
          min={0}
          max={max || 1}
          step={0.1}
          value={Math.min(time, max || 1)}
          onChange={seek}
          disabled={max === 0}
          aria-label={t("player.seek", { title })}
          aria-valuetext={`${formatDuration(time)} / ${formatDuration(max)}`}
        />
        <span className="audio-player-time" aria-hidden data-testid="ab-time">
          {formatDuration(time)} / {formatDuration(max)}
        </span>
        {downloadUrl && (
          <a
            className="btn btn-secondary btn-sm audio-player-download"
            href={downloadUrl}
            download
            aria-label={t("player.downloadNamed", { title })}
            data-testid="player-download"
          >
            <span aria-hidden>⤓</span>
            <span className="audio-player-download-text">{t("player.download")}</span>
          </a>
        )}
      </div>
      {failed && (
        <p className="error-text" role="alert">
          {t("player.playFailed")}
        </p>
      )}
      {audioFor("before", before)}
      {audioFor("after", after)}
    </div>
  );
}
