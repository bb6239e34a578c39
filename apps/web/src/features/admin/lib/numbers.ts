/** A whole number from 1 to `max` typed in a field ('12'), or null (empty, 0, '1.5', '1e3', too big). */
export function positiveInt(text: string, max: number): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= 1 && n <= max ? n : null;
}

/** A whole number from `min` to `max` (negative allowed: sort orders), or null. */
export function intIn(text: string, min: number, max: number): number | null {
  const trimmed = text.trim();
  if (!/^-?\d{1,9}$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return n >= min && n <= max ? n : null;
}
