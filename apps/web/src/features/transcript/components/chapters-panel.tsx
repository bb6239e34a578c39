import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useChapters } from "../api/get-chapters.ts";
import { formatMs } from "../lib/segments.ts";
import "./chapters-panel.css";

/**
 * Chapters (issue 24): the transcript cut where its topic changes, each with its time range, title and gist.
 * A click plays the chapter from its start. Offline chapters say how they were made, so nobody takes key words
 * for a written title.
 */
export function ChaptersPanel({ fileId, onSeek }: { fileId: number; onSeek: (segmentIndex: number) => void }) {
  const { t } = useTranslation();
  const chapters = useChapters(fileId, true);

  if (chapters.isPending) return <p className="muted">{t("common.loading")}</p>;
  if (chapters.isError)
    return (
      <div className="chapters-error" role="alert">
        <p className="error-text">{t("notes.chaptersFailed")}</p>
        <Button size="sm" variant="secondary" onClick={() => void chapters.refetch()}>
          {t("common.retry")}
        </Button>
      </div>
    );
  const list = chapters.data.chapters;
  if (list.length === 0) return <p className="muted">{t("notes.noChapters")}</p>;
  return (
    <div className="chapters" data-testid="chapters">
      {chapters.data.source === "offline" && <p className="muted chapters-source">{t("notes.offlineChapters")}</p>}
      <ol className="chapters-list">
        {list.map((chapter, k) => (
          <li key={chapter.from} className="chapter" data-testid="chapter">
            <button type="button" className="chapter-head" onClick={() => onSeek(chapter.from)}>
              <span className="chapter-time">
                {formatMs(chapter.startTime)}–{formatMs(chapter.endTime)}
              </span>
              <span className="chapter-title">
                {k + 1}. {chapter.title}
              </span>
            </button>
            {chapter.gist.length > 0 && <p className="chapter-gist">{chapter.gist.join(" ")}</p>}
          </li>
        ))}
      </ol>
    </div>
  );
}
