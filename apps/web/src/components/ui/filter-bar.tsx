import { type FormEvent, useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button } from "./button.tsx";
import "./filter-bar.css";

export interface FilterField {
  name: string;
  label: string;
  /** text (applied with the button or Enter), select or date (applied at once) */
  type?: "text" | "select" | "date";
  options?: { value: string; label: string }[];
  placeholder?: string;
  inputMode?: "numeric" | "text";
}

/**
 * The filters above a table. What is typed is applied with 'Filter' (or Enter), a choice at once;
 * 'Reset' clears them all. The table's state (the address) is the truth; this follows it.
 */
export function FilterBar({
  fields,
  values,
  onApply,
  testId,
}: {
  fields: FilterField[];
  values: Record<string, string>;
  onApply: (values: Record<string, string>) => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState(values);
  const applied = JSON.stringify(values);
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the applied values (by value)
  useEffect(() => setDraft(values), [applied]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  const any = fields.some((f) => values[f.name]);
  return (
    <form className="filter-bar" onSubmit={submit} data-testid={testId}>
      {fields.map((f) => (
        <div className="field" key={f.name}>
          <label className="field-label" htmlFor={`${id}-${f.name}`}>
            {f.label}
          </label>
          {f.type === "select" ? (
            <select
              id={`${id}-${f.name}`}
              className="input select"
              value={draft[f.name] ?? ""}
              onChange={(e) => {
                const next = { ...draft, [f.name]: e.target.value };
                setDraft(next);
                onApply(next);
              }}
            >
              <option value="">{t("table.all")}</option>
              {f.options?.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={`${id}-${f.name}`}
              className="input"
              type={f.type === "date" ? "date" : "search"}
              inputMode={f.inputMode}
              placeholder={f.placeholder}
              value={draft[f.name] ?? ""}
              onChange={(e) => {
                const next = { ...draft, [f.name]: e.target.value };
                setDraft(next);
                if (f.type === "date") onApply(next);
              }}
            />
          )}
        </div>
      ))}
      <div className="filter-bar-actions">
        <Button type="submit" variant="secondary">
          {t("table.apply")}
        </Button>
        {any && (
          <Button variant="ghost" onClick={() => onApply(Object.fromEntries(fields.map((f) => [f.name, ""])))}>
            {t("table.reset")}
          </Button>
        )}
      </div>
    </form>
  );
}
