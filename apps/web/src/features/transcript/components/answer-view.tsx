import type { AnswerNote, NoteTask } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { ProgressBar } from "@/components/ui/states.tsx";
import { useNoteTask } from "../api/ask.ts";
import { answerPieces, isNoteDone, isNoteFailed } from "../lib/notes.ts";
import { formatMs } from "../lib/segments.ts";
import { PassageButton, type PassageTarget } from "./passage-link.tsx";

/**
 * The model's answer to a question, polled until it is written; its `[n]` citations are chips that play (or
 * open) the passage they cite. A number the answer cites but the citations lack stays plain text. A plain-text
 * answer that cites nothing says so, so it is not taken for one resting on the passages.
 */
export function AnswerView({ initial, target, across }: { initial: NoteTask; target: PassageTarget; across: boolean }) {
  const { t } = useTranslation();
  const query = useNoteTask(initial);
  const task = query.data ?? initial;

  if (isNoteFailed(task))
    return (
      <p className="error-text" role="alert" data-testid="answer-failed">
        {t("notes.answerFailed", { reason: task.errorText ?? "" })}
      </p>
    );
  if (!isNoteDone(task) || !task.result || !("answer" in task.result))
    return (
      <div className="answer-running" aria-live="polite" data-testid="answer-running">
        <span className="muted">{t("notes.answering")}</span>
        <ProgressBar value={task.progress} label={t("notes.progressLabel")} />
      </div>
    );

  const { answer, citations, fallback } = task.result as AnswerNote;
  const byN = new Map(citations.map((c) => [c.n, c]));
  return (
    <div className="answer" data-testid="answer">
      <h4 className="answer-title">
        {t("notes.answer")} <span className="muted answer-model">{task.model}</span>
      </h4>
      <p className="answer-text">
        {answerPieces(answer).map((piece) => {
          if ("text" in piece) return <span key={piece.key}>{piece.text}</span>;
          const cited = byN.get(piece.cite);
          if (!cited) return <span key={piece.key}>[{piece.cite}]</span>;
          const time = formatMs(cited.startTime);
          return (
            <PassageButton
              key={piece.key}
              passage={cited}
              target={target}
              className="cite-chip"
              label={
                across
                  ? t("notes.openCite", { n: cited.n, name: cited.fileName, time })
                  : t("notes.cite", { n: cited.n, time })
              }
            >
              [{cited.n}]
            </PassageButton>
          );
        })}
      </p>
      {fallback?.answer === "prose" && citations.length === 0 && (
        <p className="muted answer-source" data-testid="answer-source">
          {t("notes.answerFromProse")}
        </p>
      )}
    </div>
  );
}
