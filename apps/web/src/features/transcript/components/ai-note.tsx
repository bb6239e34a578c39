import type { LlmBudget, LlmStatus } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import "./ai-note.css";

/**
 * Beside every AI button: where the text goes (the configured model and its host — nothing is sent anywhere
 * else) and how much of today's AI budget is used (when known). Without a model, nothing: the page says
 * once that AI features are off (AiOffNote), not every panel.
 */
export function AiNote({ llm, budget }: { llm: LlmStatus; budget?: LlmBudget }) {
  const { t, i18n } = useTranslation();
  if (!llm.configured) return null;
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

/**
 * Once per page, where the AI features would be: they are off on this site, and what they would do. In users'
 * words: what the operator sets to turn them on is the console's (issue 41).
 */
export function AiOffNote() {
  const { t } = useTranslation();
  return (
    <p className="ai-note ai-off muted" data-testid="ai-off">
      <span>{t("notes.notConfigured")}</span>
      <span>{t("notes.notConfiguredWhat")}</span>
    </p>
  );
}
