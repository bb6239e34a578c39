import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { serveSnapshots, snapshotPglite } from "./backup/embedded-snapshot.ts";
import { serveWire } from "./embedded-wire.ts";
import { privateDir, tighten } from "./private-files.ts";

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL for installs without a database server: PGlite keeps its files under
 * `dataDir` and speaks the Postgres wire protocol on a loopback port (embedded-wire.ts), so Prisma,
 * the hot-path pool and BullMQ's Postgres backend connect to it exactly as they would to a server.
 *
 * It is private to the install's user: the port asks for a password generated on first start (kept
 * beside the cookie secret, mode 600), and the data folder and its database files are 700/600 —
 * PGlite writes its files 666, so they are tightened at every start and the 700 folders keep other
 * users of the machine out of the ones it writes later.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  await privateDir(dataDir);
  const dir = path.resolve(dataDir, "pgdata");
  await privateDir(dir);
  const db = await PGlite.create(dir);
  await tighten(dir);
  const password = await embeddedPassword(dataDir);
  const server = await serveWire(db, { password });
  // `npm run backup` (and scheduled backups) ask this process for snapshots: it owns the folder.
  const control = await serveSnapshots(dataDir, password, () => server.exclusive(() => snapshotPglite(db)));
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${server.port}/postgres?sslmode=disable`;
  return {
    url,
    async stop() {
      await control.close();
      await server.close();
      await db.close();
    },
  };
}

/** The embedded database's password: generated once, kept in DATA_DIR (mode 600). */
async function embeddedPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "embedded-postgres.secret");
  try {
    const saved = (await readFile(file, "utf8")).trim();
    if (saved.length >= 32) return saved;
  } catch {
    // first start
  }
  const secret = randomBytes(24).toString("hex");
  await writeFile(file, secret, { mode: 0o600 });
  return secret;
}
