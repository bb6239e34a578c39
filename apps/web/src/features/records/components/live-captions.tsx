import type { LiveLanguage } from "@yuelu/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import type { LiveCaptionState } from "../live/live-client.ts";
import "./live-captions.css";

/**
 * The live captions under the recorder: fixed text in the normal colour, the still-changing tail
 * greyed; the language choice (off while recording: a stream keeps its language); and why there
 * are none when there are none. The choice is Chinese, English (for English speech only) or off —
 * no "auto": without a Chinese streaming model it would caption Chinese speech as English, and with
 * one, Chinese already hears English too. Chinese is marked unavailable, and said so before recording,
 * where the server reports no Chinese live captions (`available`).
 */
export function LiveCaptions({
  state,
  language,
  onLanguage,
  recording,
  transcriptHref,
  available,
}: {
  state: LiveCaptionState | null;
  /** null: live captions off */
  language: LiveLanguage | null;
  onLanguage: (language: LiveLanguage | null) => void;
  recording: boolean;
  /** the recording's transcript, once it is made: it replaces the live text */
  transcriptHref?: string;
  /** which languages the server offers live captions in (unknown: both are offered) */
  available?: { zh: boolean; en: boolean };
}) {
  const { t } = useTranslation();
  const finals = state?.finals.map((f) => f.text).join(" ") ?? "";
  const partial = state?.partial ?? "";
  const hasText = Boolean(finals || partial);
  const zhOff = available?.zh === false;
  let note: string | null = null;
  if (state?.status === "unavailable") {
    note =
      language === "zh" || !state.message ? t("live.zhNeedsModel") : t("live.unavailable", { message: state.message });
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
            <option value="zh" disabled={zhOff}>
              {zhOff ? t("live.lang_zhUnavailable") : t("live.lang_zh")}
            </option>
            <option value="en" disabled={available?.en === false}>
              {t("live.lang_en")}
            </option>
            {language === "auto" && <option value="auto">{t("live.lang_auto")}</option>}
            <option value="off">{t("live.off")}</option>
          </select>
        </label>
      </div>
      {zhOff && !language && !state && (
        // said before recording: the user chooses English captions (or none) knowingly
        <p className="muted" role="status" data-testid="live-zh-unavailable">
          {t("live.zhNeedsModel")}
        </p>
      )}
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
            // the first caption's delay is a measurement for tests and benches (data-ms), never shown
            <p className="muted live-captions-preview" data-testid="live-first-caption" data-ms={state?.firstCaptionMs}>
              {t("live.preview")}
            </p>
          )}
        </>
      )}
    </section>
  );
}
