import { useId } from "react";
import { useTranslation } from "react-i18next";

export interface Range {
  min: number;
  max: number;
  default: number;
}

/** A labelled slider with its value in words and a reset to the default (key, tempo, semitones). */
export function RangeSlider({
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
    <div className="vk-slider">
      <div className="vk-slider-head">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <output htmlFor={id} className="vk-slider-value" data-testid={`${testId}-value`}>
          {text}
        </output>
        {value !== range.default && (
          <button
            type="button"
            className="vk-slider-reset"
            onClick={() => onChange(range.default)}
            aria-label={t("voiceKit.resetNamed", { name: label })}
          >
            {t("voiceKit.reset")}
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
        data-testid={testId}
      />
    </div>
  );
}
