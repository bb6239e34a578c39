/**
 * BACKUP_CRON: the five fields of crontab(5) — minute hour day-of-month month day-of-week — with
 * `*`, lists `a,b`, ranges `a-b`, steps `* /n` and `a-b/n`, and the nicknames @hourly, @daily,
 * @weekly, @monthly. Times are the server's local time zone, as cron's. As in cron, when both day
 * fields are restricted a day matching either one runs. (Our own few lines: the cron parser in
 * node_modules comes with BullMQ, not as a dependency of ours.)
 */
export interface CronSchedule {
  /** the first matching minute strictly after `after` */
  next(after: Date): Date;
}

const NICKNAMES: Record<string, string> = {
  "@hourly": "0 * * * *",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@weekly": "0 0 * * 0",
  "@monthly": "0 0 1 * *",
};

const FIELDS = [
  { name: "minute", min: 0, max: 59 },
  { name: "hour", min: 0, max: 23 },
  { name: "day of month", min: 1, max: 31 },
  { name: "month", min: 1, max: 12 },
  { name: "day of week", min: 0, max: 7 },
] as const;

function parseField(text: string, field: (typeof FIELDS)[number]): Set<number> {
  const values = new Set<number>();
  for (const part of text.split(",")) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new Error(`BACKUP_CRON: cannot read the ${field.name} field "${text}"`);
    const step = match[4] ? Number(match[4]) : 1;
    let from: number = field.min;
    let to: number = field.max;
    if (match[1] !== "*") {
      from = Number(match[2]);
      // "5/15" means from 5 to the end in steps of 15, as in cron
      to = match[3] !== undefined ? Number(match[3]) : match[4] ? field.max : from;
    }
    if (step < 1 || from < field.min || to > field.max || from > to) {
      throw new Error(`BACKUP_CRON: the ${field.name} field "${text}" is out of range ${field.min}-${field.max}`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
}

export function parseCron(expression: string): CronSchedule {
  const text = NICKNAMES[expression.trim()] ?? expression.trim();
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new Error(`BACKUP_CRON: five fields expected, got "${expression}"`);
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => parseField(p, FIELDS[i] as never));
  if (!minutes || !hours || !days || !months || !weekdays) throw new Error("unreachable");
  if (weekdays.has(7)) weekdays.add(0); // 7 is Sunday too
  const anyDay = parts[2] === "*";
  const anyWeekday = parts[4] === "*";
  const dayMatches = (d: Date) => {
    const byDate = days.has(d.getDate());
    const byWeekday = weekdays.has(d.getDay());
    if (anyDay && anyWeekday) return true;
    if (anyDay) return byWeekday;
    if (anyWeekday) return byDate;
    return byDate || byWeekday;
  };
  return {
    next(after) {
      const t = new Date(after.getTime());
      t.setSeconds(0, 0);
      t.setMinutes(t.getMinutes() + 1);
      // Four years of minutes bound the search (29 February on a Monday is rarer, but never needed).
      const limit = after.getTime() + 4 * 366 * 24 * 3600 * 1000;
      while (t.getTime() <= limit) {
        if (!months.has(t.getMonth() + 1)) {
          t.setMonth(t.getMonth() + 1, 1);
          t.setHours(0, 0, 0, 0);
        } else if (!dayMatches(t)) {
          t.setDate(t.getDate() + 1);
          t.setHours(0, 0, 0, 0);
        } else if (!hours.has(t.getHours())) {
          t.setHours(t.getHours() + 1, 0, 0, 0);
        } else if (!minutes.has(t.getMinutes())) {
          t.setMinutes(t.getMinutes() + 1, 0, 0);
        } else {
          return t;
        }
      }
      throw new Error(`BACKUP_CRON "${expression}" never matches`);
    },
  };
}
