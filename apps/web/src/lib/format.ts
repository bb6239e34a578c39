/** Spec §9 constants and formatting helpers. */
export const SECONDS = { minute: 60, hour: 3600, day: 86400, month: 30 * 86400, year: 31_536_000 } as const;

export interface DurationParts {
  value: number;
  unit: "minutes" | "hours";
}

/**
 * A round amount as a number and one unit, for a reward image that stacks them ('30' over '分钟'):
 * minutes under an hour (at least 1), hours from an hour on with one decimal at most, rounded down.
 * Balances and quotas read in hours and minutes (formatDurationText).
 */
export function durationParts(seconds: number): DurationParts {
  const s = Math.max(0, seconds);
  if (s < SECONDS.hour) return { value: s === 0 ? 0 : Math.max(1, Math.round(s / SECONDS.minute)), unit: "minutes" };
  return { value: Math.floor((s / SECONDS.hour) * 10) / 10, unit: "hours" };
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A balance, a quota or a card in hours and minutes: '2 小时 57 分钟', '12 分钟', '3 小时' /
 * '2 h 57 min' (units.hours / units.minutes) where space is short (the quota bars, the card list);
 * `long` spells the units out in a sentence ('2 hours 57 minutes'); `compact` is the header's. Rounded down to the minute
 * (a balance never reads more than there is), but any time at all reads at least 1 minute.
 */
export function formatDurationText(
  t: Translate,
  seconds: number,
  style: "short" | "long" | "compact" = "short",
): string {
  const s = Math.max(0, Math.floor(seconds));
  const hours = Math.floor(s / SECONDS.hour);
  const minutes = s > 0 && s < SECONDS.minute ? 1 : Math.floor((s % SECONDS.hour) / SECONDS.minute);
  const long = style === "long" ? "Long" : "";
  const h = t(`units.hours${long}`, { count: hours });
  const m = t(`units.minutes${long}`, { count: minutes });
  if (hours === 0) return m;
  if (minutes === 0) return h;
  // the header's chip: '2小时59分' / '2h 59m', so it fits a phone's header
  return style === "compact" ? t("units.hoursMinutesCompact", { hours, minutes }) : `${h} ${m}`;
}

export function percent(used: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((used / total) * 100));
}

/** The percent shown beside a quota: "<1%" rather than "0%" once anything is used. */
export function percentText(used: number, total: number): string {
  const value = percent(used, total);
  return value === 0 && used > 0 && total > 0 ? "<1%" : `${value}%`;
}

/** Size in steps of 1024: B, KB, MB, GB. */
export function formatSize(bytes: number): string {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i += 1;
  }
  return `${i === 0 ? value : value.toFixed(1)}${units[i]}`;
}

const pad = (n: number) => String(n).padStart(2, "0");

/** Server epoch seconds shown as yyyy-MM-dd HH:mm:ss. */
export function formatDateTime(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Spec §9: unread badge caps at 99+. */
export function badgeCount(n: number, max = 99): string {
  return n > max ? `${max}+` : String(n);
}

/** Duration as h:mm:ss or m:ss. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/**
 * Money from integer fen (the API's priceFen, amountFen…), never from float yuan: '¥84',
 * '¥34.50'. Whole yuan drop the decimals, as the catalogue's labels do.
 */
export function formatFen(fen: number, currency = "¥"): string {
  const abs = Math.abs(Math.trunc(fen));
  const yuan = Math.floor(abs / 100);
  const cents = abs % 100;
  return `${fen < 0 ? "-" : ""}${currency}${yuan}${cents === 0 ? "" : `.${pad(cents)}`}`;
}
