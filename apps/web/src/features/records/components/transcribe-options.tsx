import type { DictationLanguage, TranscriptionLanguage } from "@yuelu/contracts";
import { MAX_SPEAKERS } from "@yuelu/contracts/constants";
import { useEffect, useId } from "react";
import { useTranslation } from "react-i18next";
import { ProgressBar, Spinner } from "@/components/ui/states.tsx";
import { useDictationConfig } from "../api/get-dictation-config.ts";
import type { DictationOptions } from "../api/start-dictation.ts";
import {
  downloadPercent,
  hasAvailableLanguage,
  isDownloading,
  isSelectable,
  lastLanguage,
  offeredLanguages,
  pickLanguage,
  preferredLanguages,
  rememberLanguage,
} from "../lib/languages.ts";
import "./transcribe-options.css";

/**
 * Language (from /dictation/configuration, with each engine's state in words: a ready language can
 * be chosen; one whose model downloads shows its percentage, asked for again every 5 s; one not
 * installed or whose download failed shows the server's sentence, already in the UI's language)
 * and speaker count (automatic or 1–10). The user's preferred language (their last choice, else the
 * UI's) is preselected when it can be chosen; otherwise nothing is, and the user is asked to choose —
 * a Chinese user is never defaulted into English. English says it is for English speech only; "auto"
 * is offered only where it can tell the languages apart.
 */
export function TranscribeOptions({
  value,
  onChange,
}: {
  value: DictationOptions;
  onChange: (next: DictationOptions) => void;
}) {
  const { t, i18n } = useTranslation();
  const config = useDictationConfig();
  const uiLang = i18n.language.startsWith("en") ? "en" : "zh";

  useEffect(() => {
    if (!config.data) return;
    const language = pickLanguage(config.data, value.language, preferredLanguages(lastLanguage(), uiLang));
    if (language !== value.language) onChange({ ...value, language });
  }, [config.data, value, onChange, uiLang]);

  if (config.isPending) return <Spinner />;
  const languages = offeredLanguages(config.data);
  const maxSpeakers = config.data?.maxSpeakers ?? MAX_SPEAKERS;
  const someReady = hasAvailableLanguage(config.data);
  const choose = (language: TranscriptionLanguage) => {
    rememberLanguage(language);
    onChange({ ...value, language });
  };
  return (
    <div className="transcribe-options" data-testid="transcribe-options">
      <fieldset className="option-group">
        <legend>{t("transcribe.language")}</legend>
        <div className="option-list">
          {languages.map((l) => (
            <LanguageOption
              key={l.value}
              language={l}
              checked={value.language === l.value}
              onSelect={() => choose(l.value)}
            />
          ))}
        </div>
        {config.data && !someReady && (
          <p className="error-text" role="alert">
            {isDownloading(config.data) ? t("transcribe.noneAvailableYet") : t("transcribe.noneAvailable")}
          </p>
        )}
        {config.data && someReady && value.language === null && (
          <p className="option-choose" role="status" data-testid="choose-language">
            {t("transcribe.chooseLanguage")}
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

/**
 * One language: a radio while its engine is ready, else disabled with the engine's state in words.
 * English says it is for English speech only (it would write Chinese speech as English words).
 */
function LanguageOption({
  language: l,
  checked,
  onSelect,
}: {
  language: DictationLanguage;
  checked: boolean;
  onSelect: () => void;
}) {
  const { t } = useTranslation();
  const selectable = isSelectable(l);
  const name = t(`transcribe.lang_${l.value}`, { defaultValue: l.label });
  const stateId = useId();
  const noteId = useId();
  const percent = downloadPercent(l);
  const note = l.value === "en" ? t("transcribe.enOnly") : null;
  const described = [note ? noteId : "", selectable ? "" : stateId].filter(Boolean).join(" ");
  return (
    <label className={selectable ? "option" : `option disabled option-${l.state}`} data-state={l.state}>
      <input
        type="radio"
        name="language"
        value={l.value}
        checked={checked}
        disabled={!selectable}
        aria-describedby={described || undefined}
        onChange={onSelect}
      />
      <span>{name}</span>
      {note && (
        <span className="option-note" id={noteId} data-testid={`note-${l.value}`}>
          {note}
        </span>
      )}
      {!selectable && l.state === "downloading" && (
        <span className="option-state" id={stateId} data-testid={`downloading-${l.value}`}>
          <span>
            {t("transcribe.state_downloading", { language: name, progress: percent })} ·{" "}
            {t("transcribe.state_downloadingHint")}
          </span>
          <ProgressBar value={percent} label={t("transcribe.downloadLabel", { language: name })} />
        </span>
      )}
      {!selectable && l.state !== "downloading" && (
        <span className="option-state option-missing" id={stateId} data-testid={`missing-${l.value}`}>
          {l.missing ||
            t(l.state === "failed" ? "transcribe.state_failed" : "transcribe.state_missing", { language: name })}
        </span>
      )}
    </label>
  );
}
