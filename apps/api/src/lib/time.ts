/** Calendar day 'YYYY-MM-DD' of `date` in the business time zone (check-in, daily tasks, daily quota). */
export function businessDay(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(date);
}

export const SECONDS = { minute: 60, hour: 3600, day: 86400, month: 30 * 86400, year: 31_536_000 } as const;

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}
