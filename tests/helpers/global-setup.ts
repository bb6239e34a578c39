import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, createDb, seedCatalogue } from "@yuelu/db";
import { startEmbeddedPostgres } from "@yuelu/runtime";
import type { TestProject } from "vitest/node";
import { adminQuery, withDatabase } from "./database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** external mode: a migrated, seeded database each test file clones; embedded mode: the shared URL */
    templateDatabase: string;
    databaseMode: "external" | "embedded";
    serverUrl: string;
  }
}

/**
 * Prepares the database once per run. With DATABASE_URL (CI, and any machine with PostgreSQL) it
 * builds a migrated, seeded template that each test file clones into its own throw-away database.
 * Without it, it starts embedded PGlite and says so: those runs share one database.
 */
export default async function setup(project: TestProject) {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `yuelu_tpl_${randomBytes(4).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
    const url = withDatabase(serverUrl, name);
    await applyMigrations(url);
    const db = createDb(url, { poolSize: 1 });
    await seedCatalogue(db);
    await db.$disconnect();
    project.provide("templateDatabase", name);
    project.provide("databaseMode", "external");
    project.provide("serverUrl", serverUrl);
    return async () => {
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    };
  }

  console.warn(
    "\n*** DATABASE_URL is not set: API tests run on embedded PGlite (one shared database). ***\n" +
      "*** Set DATABASE_URL (and REDIS_URL) to run them against real PostgreSQL and Redis.   ***\n",
  );
  const dir = await mkdtemp(path.join(tmpdir(), "yuelu-test-"));
  const embedded = await startEmbeddedPostgres(dir);
  await applyMigrations(embedded.url);
  const db = createDb(embedded.url, { poolSize: 1 });
  await seedCatalogue(db);
  await db.$disconnect();
  project.provide("templateDatabase", "");
  project.provide("databaseMode", "embedded");
  project.provide("serverUrl", embedded.url);
  return async () => {
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  };
}
