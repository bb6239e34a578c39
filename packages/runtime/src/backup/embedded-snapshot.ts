import { timingSafeEqual } from "node:crypto";
import { readFile, rm, writeFile } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Snapshots of the embedded database, with PGlite's own dump facility (`dumpDataDir`: a gzipped tar
 * of its data folder, which `PGlite.create({ loadDataDir })` opens again).
 *
 * Only one process may open a PGlite folder, so while the server runs the snapshot is taken *by the
 * server*: it listens on a loopback control port (the URL in DATA_DIR/embedded-control.url, the
 * password the one of its database port, DATA_DIR/embedded-postgres.secret) and answers a request
 * with a snapshot taken while no client holds the database — between statements and outside every
 * transaction (embedded-wire.ts `exclusive`), after a CHECKPOINT — with the row count of every table
 * at that same moment. When no server runs, the CLI opens the folder itself.
 */
export interface DbSnapshot {
  /** PGlite's dumpDataDir("gzip") */
  dump: Buffer;
  /** "schema.table" → rows, at the moment of the dump */
  rowCounts: Record<string, number>;
}

/** Row counts of every user table, as the one session sees them now. */
export async function countRows(
  query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>,
): Promise<Record<string, number>> {
  const { rows } = await query(
    `SELECT schemaname AS s, tablename AS t FROM pg_tables
     WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
  );
  const counts: Record<string, number> = {};
  for (const row of rows) {
    const s = String(row.s);
    const t = String(row.t);
    const ident = `"${s.replace(/"/g, '""')}"."${t.replace(/"/g, '""')}"`;
    const { rows: n } = await query(`SELECT count(*)::int AS n FROM ${ident}`);
    counts[`${s}.${t}`] = Number(n[0]?.n ?? 0);
  }
  return counts;
}

/** Counts and dumps `db`; the caller makes sure nothing else runs on it meanwhile. */
export async function snapshotPglite(db: PGlite): Promise<DbSnapshot> {
  const rowCounts = await countRows((sql) => db.query(sql));
  // A clean data folder: the restored copy then starts without replaying the log.
  await db.exec("CHECKPOINT");
  const file = await db.dumpDataDir("gzip");
  return { dump: Buffer.from(await file.arrayBuffer()), rowCounts };
}

/** Where a running server with the embedded database says how to ask it for a snapshot. */
export function controlUrlFile(dataDir: string): string {
  return path.join(dataDir, "embedded-control.url");
}

const ROW_COUNTS_HEADER = "x-yuelu-row-counts";

/** The server's side: a loopback port that answers `POST /snapshot` (Bearer <database password>). */
export async function serveSnapshots(
  dataDir: string,
  password: string,
  take: () => Promise<DbSnapshot>,
): Promise<{ close(): Promise<void> }> {
  const expected = Buffer.from(`Bearer ${password}`);
  const server = http.createServer((req, res) => {
    const given = Buffer.from(req.headers.authorization ?? "");
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(401).end();
      return;
    }
    if (req.method !== "POST" || req.url !== "/snapshot") {
      res.writeHead(404).end();
      return;
    }
    take().then(
      (snapshot) => {
        res.writeHead(200, {
          "content-type": "application/gzip",
          "content-length": snapshot.dump.length,
          [ROW_COUNTS_HEADER]: JSON.stringify(snapshot.rowCounts),
        });
        res.end(snapshot.dump);
      },
      (err: Error) => res.writeHead(500, { "content-type": "text/plain" }).end(err.message),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  await writeFile(controlUrlFile(dataDir), `http://127.0.0.1:${port}`, { mode: 0o600 });
  return {
    async close() {
      await rm(controlUrlFile(dataDir), { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The CLI's side: a snapshot from the server running on `dataDir`, or null when none runs there
 * (no control file, or a stale one left by a server that crashed: nobody answers).
 */
export async function requestSnapshot(dataDir: string): Promise<DbSnapshot | null> {
  let url: string;
  try {
    url = (await readFile(controlUrlFile(dataDir), "utf8")).trim();
  } catch {
    return null;
  }
  const password = (await readFile(path.join(dataDir, "embedded-postgres.secret"), "utf8")).trim();
  let res: Response;
  try {
    res = await fetch(`${url}/snapshot`, { method: "POST", headers: { authorization: `Bearer ${password}` } });
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === "ECONNREFUSED") return null;
    throw error;
  }
  if (!res.ok) throw new Error(`the running server could not take a snapshot: ${res.status} ${await res.text()}`);
  const rowCounts = JSON.parse(res.headers.get(ROW_COUNTS_HEADER) ?? "{}") as Record<string, number>;
  return { dump: Buffer.from(await res.arrayBuffer()), rowCounts };
}

/** No server runs: open the folder (nobody else may have it) and snapshot it. */
export async function snapshotDataDir(dataDir: string): Promise<DbSnapshot> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(path.join(dataDir, "pgdata"));
  try {
    return await snapshotPglite(db);
  } finally {
    await db.close();
  }
}

/** Unpacks a snapshot into `pgdataDir` (which must not exist yet) and answers its row counts. */
export async function loadSnapshot(pgdataDir: string, dump: Buffer): Promise<Record<string, number>> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create(pgdataDir, { loadDataDir: new Blob([new Uint8Array(dump)]) });
  try {
    return await countRows((sql) => db.query(sql));
  } finally {
    await db.close();
  }
}
