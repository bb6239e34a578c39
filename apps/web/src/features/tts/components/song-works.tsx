import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { WorkRow } from "@/components/ui/work-list.tsx";
import { paths } from "@/config/paths.ts";
import { formatDateTime, formatDuration } from "@/lib/format.ts";
import { taskPhase } from "@/lib/task-phase.ts";
import { useSongWorks } from "../api/get-song-works.ts";
import "./song-works.css";

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
    <section className="work-list" aria-labelledby="tts-songs-title" data-testid="song-works">
      <h2 id="tts-songs-title" className="section-title">
        {t("tts.songs.title")}
      </h2>
      <ul className="work-list-items">
        {works.data.list.map((work) => {
          const phase = taskPhase(work.status);
          const page = work.kind === "sing" ? paths.songConversion : paths.songVoiceConversion;
          return (
            <WorkRow
              key={work.workId}
              title={work.title}
              phase={phase}
              status={phase === "running" ? t("tts.running", { progress: work.progress }) : t(`tts.phase.${phase}`)}
              meta={
                <>
                  <span>{t(`tts.songs.kind.${work.kind}`)}</span>
                  <span>{work.voiceName}</span>
                  {phase === "done" && <span>{formatDuration(work.durationMs / 1000)}</span>}
                  <span>{formatDateTime(work.createTime)}</span>
                </>
              }
              note={
                <>
                  {phase === "failed" && work.errorMsg && <p className="error-text">{work.errorMsg}</p>}
                  {phase === "done" && work.audioUrl && (
                    // biome-ignore lint/a11y/useMediaCaption: a song the user made; it has no captions to offer
                    <audio
                      controls
                      preload="none"
                      src={work.audioUrl}
                      aria-label={t("work.playNamed", { title: work.title })}
                    />
                  )}
                </>
              }
              actions={
                <Link to={page} className="song-work-open">
                  {t("tts.songs.open")}
                </Link>
              }
              testId="song-work"
            />
          );
        })}
      </ul>
      {works.data.total > SHOWN && <p className="muted">{t("tts.songs.more", { count: works.data.total - SHOWN })}</p>}
    </section>
  );
}
