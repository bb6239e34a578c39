import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { applyMigrations, createDb, type Db, SEED_MARK_QUERY, seedCatalogue, seedIsCurrent } from "@yuelu/db";
import type { Config } from "./config.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import { embeddedDatabaseMissing, setUpEmbeddedDatabase } from "./embedded-setup.ts";
import { HotSql } from "./hot-sql.ts";

export interface DatabaseHandle {
  db: Db;
  /** prepared-statement reads for the hot path (bench/README.md) */
  sql: HotSql;
  /** the URL every client uses: the external server's, or the embedded one's loopback socket */
  url: string;
  embedded: boolean;
  close(): Promise<void>;
}

/**
 * Opens the database the configuration names: DATABASE_URL when set, otherwise embedded PGlite
 * under DATA_DIR. Either way it is migrated and seeded (both idempotent) unless DB_AUTO_MIGRATE=false.
 */
export async function openDatabase(config: Config, log: (msg: string) => void = () => {}): Promise<DatabaseHandle> {
  // A first start makes the embedded database in a child process (embedded-setup.ts): this one opens it finished.
  if (!config.DATABASE_URL && config.autoMigrate && embeddedDatabaseMissing(config.dataDir)) {
    log(`creating the embedded PostgreSQL (PGlite) under ${config.dataDir}/pgdata (first start)`);
    const ran = await setUpEmbeddedDatabase(config.dataDir);
    if (ran.length) log(`applied migrations: ${ran.join(", ")}`);
  }
  const embedded = config.DATABASE_URL ? undefined : await startEmbeddedPostgres(config.dataDir);
  const url = config.DATABASE_URL ?? (embedded as NonNullable<typeof embedded>).url;
  if (embedded) {
    log(`embedded PostgreSQL (PGlite) under ${config.dataDir}/pgdata`);
    // The operators' CLI (npm run admin) reaches the running server's embedded database through this.
    await writeFile(embeddedUrlFile(config.dataDir), embedded.url, { mode: 0o600 });
  }
  if (config.autoMigrate) {
    // A pending migration that cannot run online is logged before it runs (prisma/src/online.ts).
    const ran = await applyMigrations(url, undefined, { warn: log });
    if (ran.length) log(`applied migrations: ${ran.join(", ")}`);
  }
  // The embedded server runs one statement at a time, so a big pool buys nothing there.
  const db = createDb(url, { poolSize: embedded ? 4 : 10 });
  const sql = new HotSql(url, Boolean(embedded));
  // The catalogue is written again only when it changed since the last start (its fingerprint is kept
  // in the database): a start that finds it current runs no ORM query at all.
  if (config.autoMigrate && !seedIsCurrent(await sql.once(SEED_MARK_QUERY, []))) await seedCatalogue(db);
  return {
    db,
    sql,
    url,
    embedded: Boolean(embedded),
    async close() {
      await db.$disconnect();
      await sql.end();
      if (embedded) {
        await rm(embeddedUrlFile(config.dataDir), { force: true });
        await embedded.stop();
      }
    },
  };
}

/** Where a running server with the embedded database writes that database's loopback URL. */
export function embeddedUrlFile(dataDir: string): string {
  return path.join(dataDir, "embedded-postgres.url");
}
