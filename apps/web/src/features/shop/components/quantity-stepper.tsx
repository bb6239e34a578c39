import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { parseQuantity } from "../lib/quantity.ts";
import "./quantity-stepper.css";

/**
 * Spec §5 quantity stepper: an integer, step 1, from 1 to `max`. What is typed shows as typed; it
 * counts as parseQuantity reads it, and settles to that on blur (a non-number becomes 1).
 */
export function QuantityStepper({
  value,
  max,
  onChange,
  label,
}: {
  value: number;
  max: number;
  onChange: (value: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(String(value));
  // The value moved (−, +, a new max): show it, unless what is typed already reads as it ('' while retyping).
  useEffect(
    () => setText((current) => (parseQuantity(current, max) === value ? current : String(value))),
    [value, max],
  );
  const set = (next: string | number) => {
    const parsed = parseQuantity(next, max);
    onChange(parsed);
    return parsed;
  };
  return (
    <div className="stepper" data-testid="quantity-stepper">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <button
        type="button"
        className="stepper-button"
        aria-label={t("shop.decrease")}
        disabled={value <= 1}
        onClick={() => set(value - 1)}
        data-testid="quantity-decrease"
      >
        −
      </button>
      <input
        id={id}
        className="stepper-input"
        type="text"
        inputMode="numeric"
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          set(e.target.value);
        }}
        onBlur={() => setText(String(set(text)))}
        data-testid="quantity-input"
      />
      <button
        type="button"
        className="stepper-button"
        aria-label={t("shop.increase")}
        disabled={value >= max}
        onClick={() => set(value + 1)}
        data-testid="quantity-increase"
      >
        +
      </button>
    </div>
  );
}
