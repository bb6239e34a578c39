/** One field of an audit entry that changed: its value before and after (undefined: absent). */
export interface FieldChange {
  key: string;
  before: unknown;
  after: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The fields that differ between an audit entry's `before` and `after` when both are objects (or
 * one is null: a creation or a deletion), in key order; null when they are not records (then the
 * whole values are shown).
 */
export function fieldChanges(before: unknown, after: unknown): FieldChange[] | null {
  const b = before ?? {};
  const a = after ?? {};
  if (!isRecord(b) || !isRecord(a)) return null;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  return keys
    .filter((key) => JSON.stringify(b[key]) !== JSON.stringify(a[key]))
    .map((key) => ({ key, before: b[key], after: a[key] }));
}

/** A value in one line for the diff ('—' for absent). */
export function shortValue(value: unknown): string {
  if (value === undefined) return "—";
  if (typeof value === "string") return JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
