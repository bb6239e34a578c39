import { MAX_SPEAKERS } from "@yuelu/contracts/constants";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { Spinner } from "@/components/ui/states.tsx";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import type { DictationOptions } from "../api/start-dictation.ts";
import { hasAvailableLanguage, pickLanguage } from "../lib/languages.ts";
import "./transcribe-options.css";

/**
 * Language (from /dictation/configuration: a language without an installed engine is shown
 * disabled with the server's `missing` sentence, already in the UI's language) and speaker count
 * (automatic or 1–10).
 */
export function TranscribeOptions({
  value,
  onChange,
}: {
  value: DictationOptions;
  onChange: (next: DictationOptions) => void;
}) {
  const { t } = useTranslation();
  const config = useDictationConfig();

  useEffect(() => {
    if (!config.data) return;
    const language = pickLanguage(config.data, value.language);
    if (language !== value.language) onChange({ ...value, language });
  }, [config.data, value, onChange]);

  if (config.isPending) return <Spinner />;
  const languages = config.data?.languages ?? [];
  const maxSpeakers = config.data?.maxSpeakers ?? MAX_SPEAKERS;
  return (
    <div className="transcribe-options" data-testid="transcribe-options">
      <fieldset className="option-group">
        <legend>{t("transcribe.language")}</legend>
        <div className="option-list">
          {languages.map((l) => (
            <label key={l.value} className={l.available ? "option" : "option disabled"}>
              <input
                type="radio"
                name="language"
                value={l.value}
                checked={value.language === l.value}
                disabled={!l.available}
                onChange={() => onChange({ ...value, language: l.value })}
              />
              <span>{t(`transcribe.lang_${l.value}`, { defaultValue: l.label })}</span>
              {!l.available && (
                <span className="option-missing" data-testid={`missing-${l.value}`}>
                  {l.missing ? t("transcribe.unavailableWhy", { missing: l.missing }) : t("transcribe.unavailable")}
                </span>
              )}
            </label>
          ))}
        </div>
        {config.data && !hasAvailableLanguage(config.data) && (
          <p className="error-text" role="alert">
            {t("transcribe.noneAvailable")}
          </p>
        )}
      </fieldset>
      <label className="option-group option-inline">
        <span className="option-label">{t("transcribe.speakers")}</span>
        <select
          className="input select"
          value={value.speakerCount}
          onChange={(e) => onChange({ ...value, speakerCount: Number(e.target.value) })}
        >
          <option value={0}>{t("transcribe.speakersAuto")}</option>
          {Array.from({ length: maxSpeakers }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              {t("transcribe.speakersN", { count: n })}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
