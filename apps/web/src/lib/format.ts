/** Spec §9 constants and formatting helpers. */
export const SECONDS = { minute: 60, hour: 3600, day: 86400, month: 30 * 86400, year: 31_536_000 } as const;

/** Quotas are in hours (seconds / 3600), one decimal unless whole. */
export function hours(seconds: number): string {
  // One decimal at most, and none when it would be ".0" (10 795 s is "3", not "3.0").
  return String(Math.round((seconds / SECONDS.hour) * 10) / 10);
}

export function percent(used: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.round((used / total) * 100));
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
