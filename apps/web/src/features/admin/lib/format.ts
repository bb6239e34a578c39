/** How the console writes instants and amounts (the API sends ISO instants and integer units). */

const pad = (n: number) => String(n).padStart(2, "0");

/** An ISO instant in the operator's local time, 'yyyy-MM-dd HH:mm'; '' for none. */
export function formatInstant(iso: string | null | undefined): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The day of an ISO instant in local time, 'yyyy-MM-dd'. */
export function formatDate(iso: string | null | undefined): string {
  return formatInstant(iso).slice(0, 10);
}

/** A number with thousands separators: 12,345. */
export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/**
 * Today ('yyyy-MM-dd') on the wall clock of `timeZone`: the server counts its daily figures in its
 * business time zone (BUSINESS_TZ), which need not be the operator's.
 */
export function dayIn(timeZone: string, now: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => Object.assign(acc, { [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** A calendar day `days` after (or before) `day`, both 'yyyy-MM-dd' (no time zone involved). */
export function addDays(day: string, days: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A value of the audit log or a payload as compact JSON ('' for null). */
export function compactJson(value: unknown): string {
  if (value === null || value === undefined) return "";
  return JSON.stringify(value, null, 2);
}

/** Epoch seconds (webhooks answer these) as formatInstant writes instants; '' for 0. */
export function formatEpoch(seconds: number): string {
  return seconds > 0 ? formatInstant(new Date(seconds * 1000).toISOString()) : "";
}
