import { existsSync } from "node:fs";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import type { Config } from "../config.ts";
import { createBackup } from "./backup.ts";
import { parseCron } from "./cron.ts";

/**
 * Scheduled backups (BACKUP_CRON, off by default): at each time the expression names, the server
 * writes BACKUP_DIR/yuelu-<UTC yyyymmdd-hhmm>.tar and keeps the BACKUP_KEEP newest of those files.
 * With PostgreSQL every API process runs the timer, and a session advisory lock lets one of them do
 * the work; the file is named after the scheduled minute, so a node that comes late sees it done.
 */
export interface BackupSchedule {
  /** the time of the next backup */
  next(): Date;
  /** runs one scheduled backup now (what the timer calls); resolves with its file, or null when skipped */
  runOnce(at: Date): Promise<string | null>;
  stop(): Promise<void>;
}

const LOCK_KEY = 7_242_001; // any constant of this app's own
const NAME = /^yuelu-\d{8}-\d{4}\.tar$/;

export function backupFileName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-26T03:00:00.000Z
  return `yuelu-${iso.slice(0, 10).replace(/-/g, "")}-${iso.slice(11, 16).replace(":", "")}.tar`;
}

/** Removes all but the `keep` newest scheduled backups in `dir` (the names sort by time). */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => NAME.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}

type Log = { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void };

export function startBackupSchedule(config: Config, log: Log): BackupSchedule | undefined {
  if (!config.BACKUP_CRON) return undefined;
  const cron = parseCron(config.BACKUP_CRON);
  const dir = path.resolve(config.BACKUP_DIR ?? path.join(config.dataDir, "backups"));
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let nextAt = cron.next(new Date());

  async function withLock<T>(work: () => Promise<T>): Promise<T | null> {
    // The embedded database has one server: no other node to agree with.
    if (!config.DATABASE_URL) return work();
    const client = new pg.Client({ connectionString: config.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT pg_try_advisory_lock($1) AS got", [LOCK_KEY]);
      if (!rows[0].got) return null;
      try {
        return await work();
      } finally {
        await client.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]);
      }
    } finally {
      await client.end();
    }
  }

  async function runOnce(at: Date): Promise<string | null> {
    const file = path.join(dir, backupFileName(at));
    if (existsSync(file)) return null;
    return withLock(async () => {
      if (existsSync(file)) return null;
      const report = await createBackup(config, { out: file });
      const removed = await pruneBackups(dir, config.BACKUP_KEEP);
      log.info(
        { file, files: report.manifest.totals.files, rows: report.manifest.totals.rows, removed },
        "scheduled backup written",
      );
      return file;
    });
  }

  const arm = () => {
    if (stopped) return;
    // setTimeout holds at most ~24.8 days; further times are reached in steps.
    const wait = Math.min(Math.max(0, nextAt.getTime() - Date.now()), 2 ** 31 - 1);
    timer = setTimeout(() => {
      if (Date.now() < nextAt.getTime()) return arm();
      const at = nextAt;
      nextAt = cron.next(new Date(Math.max(Date.now(), at.getTime())));
      running = runOnce(at).catch((err) => log.error({ err }, "scheduled backup failed"));
      arm();
    }, wait);
    timer.unref();
  };
  arm();
  log.info({ cron: config.BACKUP_CRON, dir, keep: config.BACKUP_KEEP, next: nextAt }, "scheduled backups on");

  return {
    next: () => nextAt,
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
