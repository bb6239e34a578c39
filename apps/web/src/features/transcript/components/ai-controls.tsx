import type { UseQueryResult } from "@tanstack/react-query";
import type { NotesOfRecord } from "@yuelu/contracts";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import { AiNote } from "./ai-note.tsx";

/**
 * The AI buttons of a panel, shown only with a model configured, with why the last press was refused (70002,
 * 50008: the server's words from the catalogue) and where the text goes. `offline` replaces the buttons when
 * no model is configured; that the AI features are off is said once per page (AiOffNote), not per panel.
 */
export function AiControls({
  notes,
  error,
  offline,
  children,
}: {
  notes: UseQueryResult<NotesOfRecord>;
  error?: Error | null;
  offline?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (notes.isPending) return null;
  if (notes.isError)
    return (
      <p className="muted ai-note">
        {t("notes.loadFailed")}{" "}
        <Button size="sm" variant="ghost" onClick={() => void notes.refetch()}>
          {t("common.retry")}
        </Button>
      </p>
    );
  const { llm, budget } = notes.data;
  return (
    <div className="ai-controls" data-testid="ai-controls">
      {llm.configured ? <div className="ai-actions">{children}</div> : offline}
      {error && (
        <p className="error-text ai-error" role="alert">
          {error.message}
        </p>
      )}
      <AiNote llm={llm} budget={budget} />
    </div>
  );
}
