import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, createDb, seedCatalogue } from "@yuelu/db";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";

/**
 * A fresh embedded database's first start — PGlite's initdb, every migration and the catalogue — in a
 * process of its own (this module is its entry), so that the server that starts next opens a finished
 * database as any later start does. Making the cluster costs PGlite ~600 MB of WebAssembly memory that
 * a process does not give back whole (the server held ~150 MB more, idle, after a first start than after
 * any other: bench/README.md "Idle memory"); this process exits and takes it along.
 */

/** Whether DATA_DIR holds no embedded database yet. */
export function embeddedDatabaseMissing(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, "pgdata", "PG_VERSION"));
}

/** Creates, migrates and seeds the embedded database under `dataDir` in a child process; answers the migrations applied. */
export async function setUpEmbeddedDatabase(dataDir: string): Promise<string[]> {
  const self = fileURLToPath(import.meta.url);
  // compiled (dist/…/embedded-setup.js): plain Node; from the TypeScript sources: through tsx
  const execArgv = self.endsWith(".ts") ? ["--import", import.meta.resolve("tsx")] : [];
  const out = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [...execArgv, self, dataDir],
      { env: process.env, maxBuffer: 16 << 20, timeout: 10 * 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the embedded database could not be created: ${stderr.trim() || error.message}`));
        else resolve(stdout);
      },
    );
  });
  const last = out.trim().split("\n").pop() ?? "{}";
  return (JSON.parse(last) as { applied?: string[] }).applied ?? [];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dataDir = process.argv[2];
  if (!dataDir) throw new Error("usage: embedded-setup <dataDir>");
  const embedded = await startEmbeddedPostgres(dataDir);
  try {
    const applied = await applyMigrations(embedded.url);
    const db = createDb(embedded.url, { poolSize: 2 });
    try {
      await seedCatalogue(db);
    } finally {
      await db.$disconnect();
    }
    process.stdout.write(`${JSON.stringify({ applied })}\n`);
  } finally {
    await embedded.stop();
  }
  process.exit(0);
}
