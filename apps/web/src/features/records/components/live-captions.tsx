import type { LiveLanguage } from "@yuelu/contracts";
import { LIVE_LANGUAGES } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { LiveCaptionState } from "../live/live-client.ts";
import "./live-captions.css";

/**
 * The live captions under the recorder: fixed text in the normal colour, the still-changing tail
 * greyed; the language choice (off while recording: a stream keeps its language); and why there
 * are none when there are none.
 */
export function LiveCaptions({
  state,
  language,
  onLanguage,
  recording,
  transcriptHref,
}: {
  state: LiveCaptionState | null;
  /** null: live captions off */
  language: LiveLanguage | null;
  onLanguage: (language: LiveLanguage | null) => void;
  recording: boolean;
  /** the recording's transcript, once it is made: it replaces the live text */
  transcriptHref?: string;
}) {
  const { t } = useTranslation();
  const finals = state?.finals.map((f) => f.text).join(" ") ?? "";
  const partial = state?.partial ?? "";
  const hasText = Boolean(finals || partial);
  let note: string | null = null;
  if (state?.status === "unavailable") {
    note =
      language === "zh" || /streaming/i.test(state.message ?? "")
        ? t("live.zhNeedsModel")
        : t("live.unavailable", { message: state.message ?? "" });
  } else if (state?.status === "refused") {
    note = t("live.refused", { message: state.message ?? "" });
  } else if (state?.status === "stopped") {
    // out of transcription time midway: the captions end, the recording does not
    note = t(recording ? "live.stoppedRecording" : "live.stopped", { message: state.message ?? "" });
  }
  return (
    <section className="live-captions" aria-label={t("live.title")} data-testid="live-captions">
      <div className="live-captions-head">
        <strong>{t("live.title")}</strong>
        <label className="live-captions-lang">
          <span className="sr-only">{t("live.language")}</span>
          <select
            className="input select"
            value={language ?? "off"}
            disabled={recording}
            onChange={(e) => onLanguage(e.target.value === "off" ? null : (e.target.value as LiveLanguage))}
            data-testid="live-language"
            aria-label={t("live.language")}
          >
            {LIVE_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {t(`live.lang_${l}`)}
              </option>
            ))}
            <option value="off">{t("live.off")}</option>
          </select>
        </label>
      </div>
      {language && transcriptHref && !recording && (
        <p className="live-captions-replaced" data-testid="live-replaced">
          {t("live.replaced")}{" "}
          <Link className="btn btn-primary btn-sm" to={transcriptHref}>
            {t("live.openTranscript")}
          </Link>
        </p>
      )}
      {language && !(transcriptHref && !recording) && (
        <>
          {/* polite: screen readers hear fixed sentences, not every correction of the tail */}
          <p className="live-captions-text" aria-live="polite" data-testid="live-text">
            {finals && <span data-testid="live-final">{finals}</span>}
            {finals && partial ? " " : null}
            {partial && (
              <span className="live-partial" aria-hidden data-testid="live-partial">
                {partial}
              </span>
            )}
            {!hasText && !note && (
              <span className="muted">
                {!recording
                  ? t("live.empty")
                  : state?.status === "reconnecting"
                    ? t("live.reconnecting")
                    : state?.status === "live"
                      ? t("live.listening")
                      : t("live.connecting")}
              </span>
            )}
          </p>
          {hasText && state?.status === "reconnecting" && (
            <p className="muted" role="status">
              {t("live.reconnecting")}
            </p>
          )}
          {note && (
            <p className="muted" role="status" data-testid="live-unavailable">
              {note}
            </p>
          )}
          {!recording && hasText && (
            <p className="muted live-captions-preview">
              {t("live.preview")}
              {state?.firstCaptionMs !== undefined && (
                <span data-testid="live-first-caption" data-ms={state.firstCaptionMs}>
                  {" "}
                  ({t("live.firstCaption", { ms: state.firstCaptionMs })})
                </span>
              )}
            </p>
          )}
        </>
      )}
    </section>
  );
}
