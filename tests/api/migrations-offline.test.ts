import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { applyMigrations, OfflineMigrationError } from "../../prisma/src/migrate.ts";
import { createThrowawayDatabase, dropThrowawayDatabase } from "../helpers/database.ts";

/**
 * Issue 32: the migration runner names the pending migrations that cannot run while other nodes serve
 * before it runs any, and the operators' mode refuses them; a fresh database is migrated without a word.
 * A real PostgreSQL (a throw-away database) and migration folders written here.
 */
const name = `yuelu_offline_${randomBytes(4).toString("hex")}`;
let url: string;
let dir: string;

async function migration(folder: string, sql: string) {
  await mkdir(path.join(dir, folder), { recursive: true });
  await writeFile(path.join(dir, folder, "migration.sql"), sql);
}

async function appliedNames(): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL ORDER BY migration_name`,
    );
    return rows.map((r) => r.migration_name);
  } finally {
    await client.end();
  }
}

describe.runIf(inject("databaseMode") === "external")("migrations that cannot run online", () => {
  beforeAll(async () => {
    url = await createThrowawayDatabase(inject("serverUrl"), name);
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-migrations-"));
  });
  afterAll(async () => {
    await dropThrowawayDatabase(inject("serverUrl"), name);
    await rm(dir, { recursive: true, force: true });
  });

  it("run without a word on a fresh database, even when they drop columns", async () => {
    await migration("001_items", 'CREATE TABLE "items" ("id" INTEGER NOT NULL, "legacy" TEXT);');
    await migration("002_drop_legacy", 'ALTER TABLE "items" DROP COLUMN "legacy";');
    const warnings: string[] = [];
    const ran = await applyMigrations(url, dir, { offline: "refuse", warn: (m) => warnings.push(m) });
    expect(ran).toEqual(["001_items", "002_drop_legacy"]);
    expect(warnings).toEqual([]);
  });

  it("are named before anything runs, and refused in the operators' mode: nothing is applied", async () => {
    await migration("003_add_note", 'ALTER TABLE "items" ADD COLUMN "note" TEXT;');
    await migration("004_widen_id", 'ALTER TABLE "items" ALTER COLUMN "id" SET DATA TYPE BIGINT;');
    const warnings: string[] = [];
    await expect(applyMigrations(url, dir, { offline: "refuse", warn: (m) => warnings.push(m) })).rejects.toThrow(
      OfflineMigrationError,
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("004_widen_id");
    expect(warnings[0]).toContain("items: column type changed");
    // the harmless one is not named, and not applied either: the deploy stops before its first step
    expect(warnings[0]).not.toContain("003_add_note");
    expect(await appliedNames()).toEqual(["001_items", "002_drop_legacy"]);
  });

  it("are applied with the warning once the operator says the nodes are stopped (or at start)", async () => {
    const warnings: string[] = [];
    const ran = await applyMigrations(url, dir, { offline: "warn", warn: (m) => warnings.push(m) });
    expect(ran).toEqual(["003_add_note", "004_widen_id"]);
    expect(warnings.join("\n")).toContain("004_widen_id");
    expect(await appliedNames()).toEqual(["001_items", "002_drop_legacy", "003_add_note", "004_widen_id"]);
    // nothing pending: nothing said
    const again: string[] = [];
    expect(await applyMigrations(url, dir, { offline: "refuse", warn: (m) => again.push(m) })).toEqual([]);
    expect(again).toEqual([]);
  });
});
