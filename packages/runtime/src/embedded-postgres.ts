import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
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
  // loaded here: processes on a database server (and the launcher's worker, on the loopback URL) never load PGlite
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(dir, {
    startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS.flatMap((setting) => ["-c", setting])],
  });
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

/**
 * PostgreSQL's memory settings inside PGlite. Its WebAssembly memory only grows, and every page it has
 * touched stays resident, so PostgreSQL's server defaults (shared_buffers 128 MB, maintenance_work_mem
 * 64 MB, sized for a dedicated database machine) would hold ~130 MB more of an idle laptop install after
 * a day's use (bench/README.md "Idle memory"). One user's database is served from the operating system's
 * file cache just as well: shared_buffers 16 MB, and index builds and vacuums (migrations, housekeeping)
 * in 16 MB.
 */
const EMBEDDED_SETTINGS = ["shared_buffers=16MB", "maintenance_work_mem=16MB"];

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
