import { StatusCode } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { codeMessage } from "@/lib/api-client.ts";
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
 * translation only. Without a model it says what the operator must set.
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

  return (
    <div className="translation-bar" data-testid="translation-bar">
      <AiControls
        notes={notes}
        error={create.error}
        offline={
          <p className="muted translation-offline" data-testid="translation-offline">
            <Button size="sm" variant="secondary" disabled>
              {t("notes.translate", { lang })}
            </Button>{" "}
            {t("notes.translationNeedsLlm")} {codeMessage(StatusCode.LlmNotConfigured)}
          </p>
        }
      >
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
