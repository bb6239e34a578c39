/** The business day and other time rules (spec §9): days roll over at midnight in BUSINESS_TZ. */

export const SECONDS = { minute: 60, hour: 3600, day: 86400, month: 30 * 86400, year: 31_536_000 } as const;

/** Calendar day 'YYYY-MM-DD' of `date` in the business time zone (check-in, daily tasks, daily quota). */
export function businessDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

export interface BusinessMonth {
  today: string;
  /** 1–12 */
  month: number;
  daysInMonth: number;
  /** 'YYYY-MM-01' */
  first: string;
  /** the month's last day, 'YYYY-MM-DD' */
  last: string;
}

export function businessMonth(now: Date, timeZone: string): BusinessMonth {
  const today = businessDay(now, timeZone);
  const [year, month] = today.split("-").map(Number) as [number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const prefix = today.slice(0, 8); // 'YYYY-MM-'
  return { today, month, daysInMonth, first: `${prefix}01`, last: `${prefix}${daysInMonth}` };
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
