import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { claimAudio, releaseAudio } from "@/lib/exclusive-audio.ts";
import { formatDuration } from "@/lib/format.ts";
import "./audio-player.css";

/**
 * A player: play/pause, a seek bar and the time, and a download — labelled controls over one audio
 * element (one sound of these pages at a time). `seconds` is the length when the file does not say
 * (a fresh WebM recording).
 */
export function AudioPlayer({
  src,
  title,
  downloadUrl,
  seconds = 0,
  autoPlay,
  testId = "audio-player",
}: {
  src: string;
  title: string;
  downloadUrl?: string;
  seconds?: number;
  autoPlay?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(seconds);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const audio = audioRef.current;
    return () => {
      if (audio) releaseAudio(audio);
    };
  }, []);

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) {
      setFailed(false);
      audio.play().catch(() => setFailed(true));
    } else audio.pause();
  };

  const seek = (e: ChangeEvent<HTMLInputElement>) => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.currentTime = Number(e.target.value);
    setTime(audio.currentTime);
  };

  const label = playing ? t("player.pauseNamed", { title }) : t("player.playNamed", { title });
  const max = Number.isFinite(duration) && duration > 0 ? duration : 0;
  return (
    <div className="audio-player" data-testid={testId} data-playing={playing ? "1" : "0"}>
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
      <span className="audio-player-time" aria-hidden>
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
      {failed && (
        <p className="error-text audio-player-error" role="alert">
          {t("player.playFailed")}
        </p>
      )}
      {/* biome-ignore lint/a11y/useMediaCaption: a voice or a song, named beside its player */}
      <audio
        ref={audioRef}
        src={src}
        preload="metadata"
        autoPlay={autoPlay}
        onPlay={(e) => {
          claimAudio(e.currentTarget);
          setPlaying(true);
        }}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(e) => setTime(e.currentTarget.currentTime)}
        onLoadedMetadata={(e) => Number.isFinite(e.currentTarget.duration) && setDuration(e.currentTarget.duration)}
        onError={() => setFailed(true)}
      />
    </div>
  );
}
