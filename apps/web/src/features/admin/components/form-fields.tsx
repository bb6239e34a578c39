import { useId } from "react";

/** A labelled text field of the console's forms, its hint or error below. */
export function TextField({
  label,
  value,
  onChange,
  invalid,
  hint,
  maxLength,
  testId,
  multiline,
  rows = 4,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  hint?: string;
  maxLength?: number;
  testId?: string;
  multiline?: boolean;
  rows?: number;
  placeholder?: string;
}) {
  const id = useId();
  const props = {
    id,
    className: "input",
    value,
    maxLength,
    placeholder,
    "aria-invalid": invalid || undefined,
    "aria-describedby": hint ? `${id}-hint` : undefined,
    "data-testid": testId,
  };
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      {multiline ? (
        <textarea {...props} rows={rows} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...props} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      )}
      {hint && (
        <p className={invalid ? "error-text" : "field-hint"} id={`${id}-hint`}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** A whole-number field (digits only; a minus sign where `allowNegative`). */
export function NumberField(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  hint?: string;
  testId?: string;
  allowNegative?: boolean;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {props.label}
      </label>
      <input
        id={id}
        className="input"
        inputMode={props.allowNegative ? "text" : "numeric"}
        autoComplete="off"
        value={props.value}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onChange={(e) => props.onChange(e.target.value.replace(props.allowNegative ? /[^\d-]/g : /\D/g, ""))}
        data-testid={props.testId}
      />
      {props.hint && (
        <p className={props.invalid ? "error-text" : "field-hint"} id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function CheckField({
  label,
  checked,
  onChange,
  testId,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}) {
  return (
    <label className="check-label">
      <input
        type="checkbox"
        className="check"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        data-testid={testId}
      />
      {label}
    </label>
  );
}
