import { AppError } from "../errors.ts";

/** Calendar days ('YYYY-MM-DD') of the business time zone, for the console's date filters and figures. */

/** Whether `day` is a real calendar day (2025-02-30 is not). */
export function isCalendarDay(day: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.toISOString().slice(0, 10) === day;
}

/** The day after `day`. */
export function nextDay(day: string): string {
  return addDays(day, 1);
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  return new Date(date.getTime() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (0 when the same day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour"), get("minute"), get("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant `day` starts (00:00) in `timeZone`. */
export function dayStartUtc(day: string, timeZone: string): Date {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  let start = midnight - offsetAt(midnight, timeZone);
  // a daylight-saving change between the guess and the answer: measure again where it lands
  start = midnight - offsetAt(start, timeZone);
  return new Date(start);
}

/** A calendar day from a query, or 10002 naming its field. */
export function assertDay(field: string, day: string | undefined): void {
  if (day !== undefined && !isCalendarDay(day)) throw AppError.invalid(field, "invalid format");
}
