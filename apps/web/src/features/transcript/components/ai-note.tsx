import type { LlmBudget, LlmStatus } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import "./ai-note.css";

/**
 * Beside every AI button: where the text goes (the configured model and its host — nothing is sent anywhere
 * else) and how much of today's AI budget is used (when known); without a model, that the AI features are off and why.
 */
export function AiNote({ llm, budget }: { llm: LlmStatus; budget?: LlmBudget }) {
  const { t, i18n } = useTranslation();
  if (!llm.configured) return <p className="ai-note muted">{t("notes.notConfigured")}</p>;
  const n = (v: number) => v.toLocaleString(i18n.language);
  return (
    <p className="ai-note muted" data-testid="ai-note">
      <span>{t("notes.sentTo", { host: llm.host ?? "?", model: llm.model ?? "?" })}</span>
      {llm.answering === false && (
        <span className="ai-note-problem" title={llm.problem ?? undefined}>
          {t("notes.notAnswering")}
        </span>
      )}
      {budget && (
        <span data-testid="ai-budget">{t("notes.budget", { used: n(budget.used), limit: n(budget.limit) })}</span>
      )}
    </p>
  );
}
