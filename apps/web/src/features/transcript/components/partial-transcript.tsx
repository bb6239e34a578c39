import type { PartialSegment } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { formatMs } from "../lib/segments.ts";
import "./partial-transcript.css";

/**
 * The text recognised so far while the record transcribes (issue 43): read-only, without speakers
 * (they are known once the whole recording is heard), growing as the worker goes; a time plays the
 * recording from there. The finished transcript replaces it.
 */
export function PartialTranscript({
  segments,
  onSeek,
}: {
  segments: readonly PartialSegment[];
  onSeek: (ms: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <section className="partial" data-testid="partial-transcript" aria-busy="true" aria-live="polite">
      <p className="partial-marker" data-testid="partial-marker">
        <span className="partial-dot" aria-hidden />
        {t("transcript.partialMarker")}
      </p>
      {segments.length === 0 ? (
        <p className="muted partial-empty">{t("transcript.partialEmpty")}</p>
      ) : (
        <ol className="partial-list">
          {segments.map((s) => (
            <li key={`${s.startTime}-${s.endTime}`} className="partial-segment" data-testid="partial-segment">
              <button
                type="button"
                className="partial-time"
                onClick={() => onSeek(s.startTime)}
                aria-label={t("transcript.jumpTo", { time: formatMs(s.startTime) })}
              >
                {formatMs(s.startTime)}
              </button>
              <p className="partial-text">{s.text}</p>
            </li>
          ))}
        </ol>
      )}
      {segments.length > 0 && <p className="muted partial-note">{t("transcript.partialNote")}</p>}
    </section>
  );
}
