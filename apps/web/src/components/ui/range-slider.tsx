import { useId } from "react";
import { useTranslation } from "react-i18next";
import "./range-slider.css";

export interface Range {
  min: number;
  max: number;
  default: number;
}

/**
 * A labelled slider with its value in words and a reset to the default: speed, pitch and volume of
 * speech; key, tempo and semitones of songs.
 */
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
    <div className="range-slider">
      <div className="range-slider-head">
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <output htmlFor={id} className="range-slider-value" data-testid={`${testId}-value`}>
          {text}
        </output>
        {value !== range.default && (
          <button
            type="button"
            className="range-slider-reset"
            onClick={() => onChange(range.default)}
            aria-label={t("slider.resetNamed", { name: label })}
          >
            {t("slider.reset")}
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
