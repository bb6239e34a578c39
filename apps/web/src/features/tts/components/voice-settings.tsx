import type { TtsFormat } from "@yuelu/contracts/constants";
import { useTranslation } from "react-i18next";
import { type Range, RangeSlider } from "@/components/ui/range-slider.tsx";
import "./voice-settings.css";

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
      <RangeSlider
        label={t("tts.speed")}
        range={ranges.speed}
        step={0.1}
        value={value.speed}
        text={t("tts.speedValue", { value: value.speed.toFixed(1) })}
        onChange={(speed) => set({ speed })}
        testId="slider-speed"
      />
      <RangeSlider
        label={t("tts.pitch")}
        range={ranges.pitch}
        step={1}
        value={value.pitch}
        text={t("tts.pitchValue", { value: value.pitch > 0 ? `+${value.pitch}` : String(value.pitch) })}
        onChange={(pitch) => set({ pitch })}
        testId="slider-pitch"
      />
      <RangeSlider
        label={t("tts.volume")}
        range={ranges.volume}
        step={0.1}
        value={value.volume}
        text={`${Math.round(value.volume * 100)}%`}
        onChange={(volume) => set({ volume })}
        testId="slider-volume"
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
