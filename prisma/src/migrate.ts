import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { offlineReasons } from "./online.ts";

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../migrations");

// Prisma's own lock key, so this runner and `prisma migrate deploy` never run at the same time.
const ADVISORY_LOCK_KEY = 72707369;

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

/**
 * Applies the committed SQL migrations (Prisma's layout) without Prisma's schema engine, which
 * cannot be downloaded offline. Each migration runs in its own transaction and is recorded in
 * `_prisma_migrations` exactly as `prisma migrate deploy` records it, so both tools agree.
 * Returns the names of the migrations it applied.
 */
export interface MigrateOptions {
  /**
   * Pending migrations that cannot run online (online.ts) on a database already in use: "warn" says
   * so (through `warn`) and runs them; "refuse" says so and runs nothing (the operators' CLI, unless
   * told `--offline`). A fresh database (no migration applied yet) has nobody to disturb: no check.
   */
  offline?: "warn" | "refuse";
  warn?: (message: string) => void;
}

/** Pending migrations that need the other nodes stopped, as the message operators read. */
export function offlineWarning(pending: { name: string; reasons: string[] }[]): string | undefined {
  const offline = pending.filter((p) => p.reasons.length > 0);
  if (offline.length === 0) return undefined;
  const lines = offline.flatMap((p) => [`  ${p.name}:`, ...p.reasons.map((r) => `    - ${r}`)]);
  return [
    `${offline.length} pending migration(s) cannot run while other nodes serve requests:`,
    ...lines,
    "Stop every API and worker node first (docker compose stop api worker), migrate, then start the new version.",
  ].join("\n");
}

export async function applyMigrations(
  databaseUrl: string,
  dir = MIGRATIONS_DIR,
  options: MigrateOptions = {},
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
       WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(done.rows.map((r) => [r.migration_name, r.checksum]));
    const names = (await readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    const files = await Promise.all(
      names.map(async (name) => ({ name, sql: await readFile(path.join(dir, name, "migration.sql"), "utf8") })),
    );
    // Said before anything runs: a migration that locks or drops what the running nodes use.
    if (applied.size > 0) {
      const pending = files.filter((f) => !applied.has(f.name));
      const warning = offlineWarning(pending.map((f) => ({ name: f.name, reasons: offlineReasons(f.sql) })));
      if (warning) {
        (options.warn ?? console.warn)(warning);
        if (options.offline === "refuse") {
          throw new OfflineMigrationError(warning);
        }
      }
    }
    const ran: string[] = [];
    for (const { name, sql } of files) {
      const checksum = createHash("sha256").update(sql).digest("hex");
      const previous = applied.get(name);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new Error(`Migration ${name} was edited after it was applied (checksum differs)`);
        }
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`);
      }
      ran.push(name);
    }
    return ran;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** Pending migrations need the nodes stopped, and the caller did not say they are. */
export class OfflineMigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OfflineMigrationError";
  }
}
