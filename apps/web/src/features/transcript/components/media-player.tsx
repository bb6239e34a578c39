import type { RefObject } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import "./media-player.css";

/**
 * The record's original, streamed from audioPath (the server answers Range requests, so seeking
 * works). Video containers play in a <video>; a format the browser cannot decode says so and
 * offers the download instead.
 */
export function MediaPlayer({
  src,
  video,
  mediaRef,
  onTime,
  onSeeked,
  downloadHref,
}: {
  src: string;
  video: boolean;
  mediaRef: RefObject<HTMLMediaElement | null>;
  onTime: (ms: number) => void;
  /** the playhead was moved (a seek, from the controls or a segment) */
  onSeeked?: () => void;
  downloadHref: string;
}) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  const props = {
    src,
    controls: true,
    preload: "metadata" as const,
    "aria-label": t("transcript.player"),
    "data-testid": "player",
    onTimeUpdate: (e: { currentTarget: HTMLMediaElement }) => onTime(e.currentTarget.currentTime * 1000),
    onSeeked: (e: { currentTarget: HTMLMediaElement }) => {
      onTime(e.currentTarget.currentTime * 1000);
      onSeeked?.();
    },
    onError: () => setFailed(true),
  };
  return (
    <div className={video ? "player player-video" : "player"}>
      {video ? (
        <video ref={mediaRef as RefObject<HTMLVideoElement>} playsInline {...props}>
          <track kind="captions" />
        </video>
      ) : (
        <audio ref={mediaRef as RefObject<HTMLAudioElement>} {...props} />
      )}
      {failed && (
        <p className="muted player-note">
          {t("transcript.playerUnsupported")} <a href={downloadHref}>{t("transcript.downloadAudio")}</a>
        </p>
      )}
    </div>
  );
}
