import type { AskResult, Passage } from "@yuelu/contracts";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { useAsk, useLlmEngine } from "../api/ask.ts";
import { useNotes } from "../api/get-notes.ts";
import { AiNote, AiOffNote } from "./ai-note.tsx";
import { AnswerView } from "./answer-view.tsx";
import { type PassageTarget, PassageTime } from "./passage-link.tsx";
import "./ask-panel.css";

const MAX_QUESTION = 500;

/**
 * Ask the transcript (issue 24): one record's (`fileId`) or all of mine. The best-matching passages come at
 * once, labelled as quotes, not an answer; with a model configured its answer follows, citing them — each
 * citation plays its segment (`target.onPlay`, on /detail) or opens it (`target.hrefOf`, across records).
 */
export function AskPanel({ fileId, target }: { fileId?: number; target: PassageTarget }) {
  const { t } = useTranslation();
  const [question, setQuestion] = useState("");
  const [result, setResult] = useState<AskResult | null>(null);
  const ask = useAsk(fileId);
  const notes = useNotes(fileId ?? 0, fileId !== undefined);
  const across = fileId === undefined;
  const engine = useLlmEngine(across);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = question.trim();
    if (!q) return;
    ask.mutate(q, { onSuccess: setResult });
  };

  return (
    <section className="ask" data-testid="ask" aria-labelledby="ask-title">
      <h3 className="ask-title" id="ask-title">
        {across ? t("notes.askAllTitle") : t("notes.askTitle")}
      </h3>
      <form className="ask-form" onSubmit={submit}>
        <input
          className="input"
          type="text"
          value={question}
          maxLength={MAX_QUESTION}
          onChange={(e) => setQuestion(e.target.value)}
          placeholder={t("notes.askPlaceholder")}
          aria-label={across ? t("notes.askAllTitle") : t("notes.askTitle")}
          data-testid="ask-input"
        />
        <Button type="submit" size="sm" disabled={ask.isPending || !question.trim()} data-testid="ask-submit">
          {ask.isPending ? t("notes.asking") : t("notes.askButton")}
        </Button>
      </form>
      {notes.data && <AiNote llm={notes.data.llm} budget={notes.data.budget} />}
      {/* across my records this panel is the page: it says itself that AI features are off */}
      {engine.data && (engine.data.configured ? <AiNote llm={engine.data} /> : <AiOffNote />)}
      {ask.isError && (
        <p className="error-text" role="alert">
          {ask.error.message}
        </p>
      )}
      {result && (
        <div className="ask-result">
          {result.task ? (
            <AnswerView key={result.task.taskId} initial={result.task} target={target} across={across} />
          ) : (
            <p className="muted ask-no-model">{t("notes.noAnswerModel")}</p>
          )}
          <PassageList passages={result.passages} target={target} across={across} />
        </div>
      )}
    </section>
  );
}

function PassageList({ passages, target, across }: { passages: Passage[]; target: PassageTarget; across: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="passages" data-testid="passages">
      <h4 className="passages-title">{t("notes.passages")}</h4>
      {passages.length === 0 ? (
        <p className="muted">{t("notes.noPassages")}</p>
      ) : (
        <ol className="passages-list">
          {passages.map((p) => (
            <li key={`${p.fileId}:${p.segmentIndex}`} className="passage" data-testid="passage">
              <PassageTime passage={p} target={target} across={across} />
              <blockquote className="passage-text">{p.text}</blockquote>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
