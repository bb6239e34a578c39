import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import "./transcript-search.css";

/** Full-text search over the transcript: Enter / ↓ next, Shift+Enter / ↑ previous. */
export function TranscriptSearch({
  query,
  onQuery,
  total,
  current,
  onMove,
}: {
  query: string;
  onQuery: (q: string) => void;
  total: number;
  current: number;
  onMove: (step: 1 | -1) => void;
}) {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is still an unknown element in some browsers we support
    <div className="transcript-search" role="search">
      <input
        className="input"
        type="search"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        placeholder={t("transcript.searchPlaceholder")}
        aria-label={t("transcript.searchLabel")}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onMove(e.shiftKey ? -1 : 1);
          }
        }}
      />
      {query.trim() !== "" && (
        <span className="muted match-count" data-testid="match-count" aria-live="polite">
          {total === 0 ? t("transcript.noMatches") : t("transcript.matchCount", { current: current + 1, total })}
        </span>
      )}
      <Button
        size="sm"
        variant="ghost"
        onClick={() => onMove(-1)}
        disabled={total === 0}
        aria-label={t("transcript.prevMatch")}
      >
        ↑
      </Button>
      <Button
        size="sm"
        variant="ghost"
        onClick={() => onMove(1)}
        disabled={total === 0}
        aria-label={t("transcript.nextMatch")}
      >
        ↓
      </Button>
    </div>
  );
}
