import type { Chapters } from "@yuelu/contracts";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useCreateNote } from "../api/create-note.ts";
import { useChapters } from "../api/get-chapters.ts";
import { useNotes } from "../api/get-notes.ts";
import { isNoteDone, isNoteRunning, noteOf } from "../lib/notes.ts";
import { formatMs } from "../lib/segments.ts";
import { AiControls } from "./ai-controls.tsx";
import { NoteState } from "./note-state.tsx";
import "./chapters-panel.css";

/**
 * Chapters (issue 24): the transcript cut where its topic changes, each with its time range, title and gist.
 * A click plays the chapter from its start. Offline chapters say how they were made, so nobody takes key words
 * for a written title; with a language model configured they can be written again by it.
 */
export function ChaptersPanel({ fileId, onSeek }: { fileId: number; onSeek: (segmentIndex: number) => void }) {
  const { t } = useTranslation();
  const chapters = useChapters(fileId, true);
  const notes = useNotes(fileId);
  const task = noteOf(notes.data?.notes, "chapters");
  const create = useCreateNote(fileId);
  const make = () => create.mutate({ kind: "chapters" });
  // the newest AI chapters as soon as their task is done (the chapters query catches up after)
  const made = isNoteDone(task) && task?.result && "chapters" in task.result ? (task.result as Chapters) : null;

  let list: React.ReactNode;
  if (made) list = <ChapterList chapters={made} model={task?.model ?? ""} onSeek={onSeek} />;
  else if (chapters.isPending) list = <p className="muted">{t("common.loading")}</p>;
  else if (chapters.isError)
    list = (
      <div className="chapters-error" role="alert">
        <p className="error-text">{t("notes.chaptersFailed")}</p>
        <Button size="sm" variant="secondary" onClick={() => void chapters.refetch()}>
          {t("common.retry")}
        </Button>
      </div>
    );
  else list = <ChapterList chapters={chapters.data} model={notes.data?.llm.model ?? ""} onSeek={onSeek} />;

  return (
    <div className="chapters" data-testid="chapters">
      <AiControls notes={notes} error={create.error}>
        <Button
          size="sm"
          variant="secondary"
          disabled={create.isPending || isNoteRunning(task)}
          onClick={make}
          data-testid="ai-chapters"
        >
          {t("notes.regenerateChapters")}
        </Button>
      </AiControls>
      <NoteState fileId={fileId} task={task} onRegenerate={make} regenerating={create.isPending} />
      {list}
    </div>
  );
}

/** How the chapters were made: by the model, offline because its answer was unusable, or offline by default. */
function chapterSourceText(chapters: Chapters, model: string, t: TFunction): string {
  if (chapters.fallback?.chapters === "offline") return t("notes.chaptersFallback");
  return chapters.source === "llm" ? t("notes.llmChapters", { model }) : t("notes.offlineChapters");
}

function ChapterList({
  chapters,
  model,
  onSeek,
}: {
  chapters: Chapters;
  model: string;
  onSeek: (segmentIndex: number) => void;
}) {
  const { t } = useTranslation();
  if (chapters.chapters.length === 0) return <p className="muted">{t("notes.noChapters")}</p>;
  return (
    <>
      <p className="muted chapters-source" data-testid="chapters-source">
        {chapterSourceText(chapters, model, t)}
      </p>
      <ol className="chapters-list">
        {chapters.chapters.map((chapter, k) => (
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
    </>
  );
}
