import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { paths } from "@/config/paths.ts";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { useSongWorks } from "../api/get-song-works.ts";
import { taskPhase } from "../lib/task-status.ts";
import "./works-list.css";

const SHOWN = 5;

/**
 * 'My works' also holds what the voice pages made: the latest sung and converted songs, to play here;
 * renaming and deleting stay on the page that made them (linked). Nothing is shown until there is one.
 */
export function SongWorks() {
  const { t } = useTranslation();
  const works = useSongWorks(SHOWN);
  if (!works.data || works.data.total === 0) return null;
  return (
    <section className="tts-works" aria-labelledby="tts-songs-title" data-testid="song-works">
      <h2 id="tts-songs-title" className="section-title">
        {t("tts.songs.title")}
      </h2>
      <ul className="tts-works-list">
        {works.data.list.map((work) => {
          const phase = taskPhase(work.status);
          const page = work.kind === "sing" ? paths.songConversion : paths.songVoiceConversion;
          return (
            <li key={work.workId} className="tts-work" data-testid="song-work">
              <div className="tts-work-main">
                <div className="tts-work-title">
                  <strong title={work.title}>{work.title}</strong>
                  <span className={`tts-work-status tts-work-${phase}`}>
                    {phase === "running" ? t("tts.running", { progress: work.progress }) : t(`tts.phase.${phase}`)}
                  </span>
                </div>
                <div className="tts-work-meta muted">
                  <span>{t(`tts.songs.kind.${work.kind}`)}</span>
                  <span>{work.voiceName}</span>
                  {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
                  <span>{formatDateTime(work.createTime)}</span>
                </div>
                {phase === "failed" && work.errorMsg && <p className="error-text">{work.errorMsg}</p>}
                {phase === "done" && work.audioUrl && (
                  // biome-ignore lint/a11y/useMediaCaption: a song the user made; it has no captions to offer
                  <audio
                    controls
                    preload="none"
                    src={work.audioUrl}
                    aria-label={t("tts.playNamed", { title: work.title })}
                  />
                )}
              </div>
              <Link to={page} className="tts-work-open">
                {t("tts.songs.open")}
              </Link>
            </li>
          );
        })}
      </ul>
      {works.data.total > SHOWN && <p className="muted">{t("tts.songs.more", { count: works.data.total - SHOWN })}</p>}
    </section>
  );
}
