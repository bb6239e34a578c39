import { ttsCharCount } from "@yuelu/contracts/constants";
import { clsx } from "clsx";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "@/components/ui/button.tsx";
import "./text-editor.css";

/**
 * The text to speak, with its count as the server counts it (code points, after trimming) against
 * the limit. Longer text may be typed or pasted — it is refused at 'generate', never cut silently.
 */
export function TextEditor({
  value,
  max,
  onChange,
}: {
  value: string;
  max: number;
  onChange: (value: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const count = ttsCharCount(value.trim());
  const over = count > max;
  return (
    <div className="tts-editor">
      <label htmlFor={id} className="sr-only">
        {t("tts.textLabel")}
      </label>
      <textarea
        id={id}
        className="input tts-textarea"
        value={value}
        placeholder={t("tts.placeholder")}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={over}
        aria-describedby={`${id}-count`}
        data-testid="tts-text"
      />
      <div className="tts-editor-foot">
        <div className="tts-editor-tools">
          <Button variant="ghost" size="sm" onClick={() => onChange(t("tts.sampleText"))}>
            {t("tts.trySample")}
          </Button>
          <Button variant="ghost" size="sm" onClick={() => onChange("")} disabled={value === ""}>
            {t("tts.clear")}
          </Button>
        </div>
        <span
          id={`${id}-count`}
          className={clsx("tts-count", over && "over")}
          data-testid="char-count"
          title={t("tts.countLabel", { n: count, max })}
        >
          {count.toLocaleString(i18n.language)} / {max.toLocaleString(i18n.language)}
        </span>
      </div>
      {over && (
        <p className="error-text" role="alert" data-testid="too-long">
          {t("tts.tooLong", { max })}
        </p>
      )}
    </div>
  );
}
