import { useId } from "react";
import { useTranslation } from "react-i18next";

/** Whether a reason is long enough for the API (contracts' ZAdminReason: 2–500 characters once trimmed). */
export function reasonValid(reason: string): boolean {
  const length = reason.trim().length;
  return length >= 2 && length <= 500;
}

/** The written reason an action that changes a user's assets (or account) needs; it goes to the audit log. */
export function ReasonField({
  value,
  onChange,
  showError,
  testId = "reason",
}: {
  value: string;
  onChange: (value: string) => void;
  showError?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const invalid = Boolean(showError) && !reasonValid(value);
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {t("admin.field.reason")}
      </label>
      <textarea
        id={id}
        className="input"
        rows={2}
        maxLength={500}
        value={value}
        required
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
      <p className={invalid ? "error-text" : "field-hint"} id={`${id}-hint`} role={invalid ? "alert" : undefined}>
        {invalid ? t("admin.field.reasonRequired") : t("admin.field.reasonHint")}
      </p>
    </div>
  );
}
