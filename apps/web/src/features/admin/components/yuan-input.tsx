import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { fenToYuanText, yuanToFen } from "../lib/money.ts";

/**
 * A price typed in yuan and handed on as integer fen (lib/money.ts: no float on the way): '12.5'
 * gives 1250. While what is typed is not a price, the field says so and hands on null, so the form
 * cannot send it. Its first value is `initialFen`; give the field a new `key` to start it again.
 */
export function YuanInput({
  label,
  initialFen,
  onFenChange,
  testId,
  hint,
}: {
  label: string;
  initialFen: number | null;
  onFenChange: (fen: number | null) => void;
  testId?: string;
  hint?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(initialFen === null ? "" : fenToYuanText(initialFen));
  const [touched, setTouched] = useState(false);
  const fen = yuanToFen(text);
  const invalid = fen === null && (touched || text !== "");
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="admin-yuan">
        <span aria-hidden>¥</span>
        <input
          id={id}
          className="input"
          inputMode="decimal"
          autoComplete="off"
          value={text}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined}
          onChange={(e) => {
            setText(e.target.value);
            onFenChange(yuanToFen(e.target.value));
          }}
          onBlur={() => setTouched(true)}
          data-testid={testId}
        />
      </div>
      {invalid ? (
        <p className="error-text" id={`${id}-error`} role="alert">
          {t("admin.money.invalid")}
        </p>
      ) : (
        hint && (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        )
      )}
    </div>
  );
}
