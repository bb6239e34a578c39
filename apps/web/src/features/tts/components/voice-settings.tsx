import type { TtsFormat } from "@yuelu/contracts/constants";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import "./voice-settings.css";

export interface Range {
  min: number;
  max: number;
  default: number;
}

export interface VoiceSettingsValue {
  speed: number;
  pitch: number;
  volume: number;
  format: TtsFormat;
}

/** Speed (×), pitch (semitones) and volume (%) sliders, and the file format. */
export function VoiceSettings({
  value,
  ranges,
  formats,
  onChange,
}: {
  value: VoiceSettingsValue;
  ranges: { speed: Range; pitch: Range; volume: Range };
  formats: readonly TtsFormat[];
  onChange: (value: VoiceSettingsValue) => void;
}) {
  const { t } = useTranslation();
  const set = (patch: Partial<VoiceSettingsValue>) => onChange({ ...value, ...patch });
  return (
    <div className="voice-settings">
      <Slider
        label={t("tts.speed")}
        range={ranges.speed}
        step={0.1}
        value={value.speed}
        text={t("tts.speedValue", { value: value.speed.toFixed(1) })}
        onChange={(speed) => set({ speed })}
        testId="speed"
      />
      <Slider
        label={t("tts.pitch")}
        range={ranges.pitch}
        step={1}
        value={value.pitch}
        text={t("tts.pitchValue", { value: value.pitch > 0 ? `+${value.pitch}` : String(value.pitch) })}
        onChange={(pitch) => set({ pitch })}
        testId="pitch"
      />
      <Slider
        label={t("tts.volume")}
        range={ranges.volume}
        step={0.1}
        value={value.volume}
        text={`${Math.round(value.volume * 100)}%`}
        onChange={(volume) => set({ volume })}
        testId="volume"
      />
      <fieldset className="voice-format">
        <legend className="field-label">{t("tts.format")}</legend>
        <div className="voice-format-options">
          {formats.map((format) => (
            <label key={format} className="voice-format-option">
              <input
                type="radio"
                name="tts-format"
                value={format}
                checked={value.format === format}
                onChange={() => set({ format })}
              />
              <span>{format.toUpperCase()}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}

function Slider({
  label,
  range,
  step,
  value,
  text,
  onChange,
  testId,
}: {
  label: string;
  range: Range;
  step: number;
  value: number;
  text: string;
  onChange: (value: number) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div className="voice-slider">
      <div className="voice-slider-head">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <output htmlFor={id} className="voice-slider-value">
          {text}
        </output>
        {value !== range.default && (
          <button
            type="button"
            className="voice-slider-reset"
            onClick={() => onChange(range.default)}
            aria-label={t("tts.resetNamed", { name: label })}
          >
            {t("tts.reset")}
          </button>
        )}
      </div>
      <input
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={step}
        value={value}
        aria-valuetext={text}
        onChange={(e) => onChange(Math.round(Number(e.target.value) * 100) / 100)}
        data-testid={`slider-${testId}`}
      />
    </div>
  );
}
