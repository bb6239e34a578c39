import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import { Dialog } from "./dialog.tsx";

/**
 * One text field in a dialog (rename a record, create or rename a folder), checked by length and,
 * where the page knows the names in use (folders), against them: the user reads why at the field,
 * and nothing is sent.
 */
export function NameFormDialog({
  open,
  title,
  label,
  placeholder,
  initial,
  min,
  max,
  invalidText,
  taken,
  takenText,
  pending,
  onSubmit,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  placeholder?: string;
  initial: string;
  min: number;
  max: number;
  invalidText: string;
  /** a name already in use (the server refuses it too) */
  taken?: (value: string) => boolean;
  takenText?: string;
  pending?: boolean;
  onSubmit: (value: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initial);
  const [invalid, setInvalid] = useState<string | null>(null);
  useEffect(() => {
    if (open) {
      setValue(initial);
      setInvalid(null);
    }
  }, [open, initial]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = value.trim();
    const length = [...v].length;
    if (length < min || length > max) return setInvalid(invalidText);
    if (v !== initial.trim() && taken?.(v)) return setInvalid(takenText ?? invalidText);
    onSubmit(v);
  };

  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title={title}>
      <form onSubmit={submit} className="form">
        <label className="field">
          <span className="field-label">{label}</span>
          <input
            className="input"
            value={value}
            maxLength={max}
            placeholder={placeholder}
            onChange={(e) => {
              setValue(e.target.value);
              setInvalid(null);
            }}
            aria-invalid={invalid !== null}
            autoFocus
          />
        </label>
        {invalid && (
          <p className="error-text" role="alert">
            {invalid}
          </p>
        )}
        <div className="dialog-actions">
          <Button variant="secondary" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" disabled={pending}>
            {t("common.confirm")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
