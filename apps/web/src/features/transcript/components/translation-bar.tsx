import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useCreateNote } from "../api/create-note.ts";
import { useNotes } from "../api/get-notes.ts";
import { isNoteDone, isNoteRunning, noteOf } from "../lib/notes.ts";
import { AiControls } from "./ai-controls.tsx";
import { NoteState } from "./note-state.tsx";
import "./translation-bar.css";

export type TranslationView = "original" | "side" | "translation";
const VIEWS: [TranslationView, string][] = [
  ["original", "notes.viewOriginal"],
  ["side", "notes.viewSide"],
  ["translation", "notes.viewTranslation"],
];

/**
 * Translation of the whole transcript into `target` (English for a Chinese one, Chinese otherwise), segment by
 * segment: the button, its progress, and once done how to show it — the original, side by side, or the
 * translation only. Without a model it is not shown: the page says once that AI features are off (AiOffNote),
 * and on a phone nothing stands between the player and the transcript.
 */
export function TranslationBar({
  fileId,
  target,
  view,
  onView,
}: {
  fileId: number;
  target: "zh" | "en";
  view: TranslationView;
  onView: (view: TranslationView) => void;
}) {
  const { t } = useTranslation();
  const notes = useNotes(fileId);
  const create = useCreateNote(fileId);
  const task = noteOf(notes.data?.notes, "translation", target);
  const done = isNoteDone(task);
  const translate = () => create.mutate({ kind: "translation", target });
  const lang = t(`notes.lang.${target}`);
  // shown once the notes say a model is set: never a flash of it before they answer
  if (!notes.data?.llm.configured) return null;

  return (
    <div className="translation-bar" data-testid="translation-bar">
      <AiControls notes={notes} error={create.error}>
        <Button
          size="sm"
          variant="secondary"
          disabled={create.isPending || isNoteRunning(task)}
          onClick={translate}
          data-testid="ai-translation"
        >
          {done ? t("notes.retranslate") : t("notes.translate", { lang })}
        </Button>
        {done && (
          // biome-ignore lint/a11y/useSemanticElements: a row of toggle buttons reads better than radio inputs here
          <div className="view-switch" role="group" aria-label={t("notes.view")}>
            {VIEWS.map(([value, label]) => (
              <button
                key={value}
                type="button"
                className="view-switch-item"
                aria-pressed={view === value}
                onClick={() => onView(value)}
              >
                {t(label)}
              </button>
            ))}
          </div>
        )}
      </AiControls>
      <NoteState fileId={fileId} task={task} onRegenerate={translate} regenerating={create.isPending} />
    </div>
  );
}
