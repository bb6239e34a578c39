import { spawn } from "node:child_process";
import pg from "pg";
import { countRows } from "./embedded-snapshot.ts";

/**
 * PostgreSQL (DATABASE_URL): `pg_dump` in its custom format, restored with `pg_restore`. The dump
 * and the manifest's row counts come from one exported snapshot (`pg_dump --snapshot`), so they
 * describe the same moment however many writes go on.
 */
export const PG_DUMP_MISSING =
  "pg_dump not found: install the postgresql-client package (apt-get install postgresql-client)";
export const PG_RESTORE_MISSING =
  "pg_restore not found: install the postgresql-client package (apt-get install postgresql-client)";

function run(
  program: string,
  args: string[],
  missing: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", (err: NodeJS.ErrnoException) => reject(err.code === "ENOENT" ? new Error(missing) : err));
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** The client tool's major version ("pg_dump (PostgreSQL) 15.20" → 15). */
async function toolMajor(program: string, missing: string): Promise<number> {
  const { stdout } = await run(program, ["--version"], missing);
  const major = Number(/(\d+)(?:\.\d+)?/.exec(stdout)?.[1]);
  if (!major) throw new Error(`${program} --version answered "${stdout.trim()}"`);
  return major;
}

/** pg_dump refuses a server newer than itself; say so before it starts, naming both versions. */
async function checkVersions(client: pg.Client, program: string, missing: string): Promise<void> {
  const tool = await toolMajor(program, missing);
  const { rows } = await client.query("SHOW server_version_num");
  const server = Math.floor(Number(rows[0].server_version_num) / 10_000);
  if (tool < server) {
    throw new Error(
      `${program} ${tool} is older than the PostgreSQL ${server} server: install postgresql-client-${server}`,
    );
  }
}

/** libpq takes the URL itself; our URLs may carry options node-postgres knows and libpq does not. */
function libpqUrl(url: string): string {
  const u = new URL(url);
  for (const key of [...u.searchParams.keys()]) if (key !== "sslmode") u.searchParams.delete(key);
  return u.toString();
}

export async function dumpPostgres(
  databaseUrl: string,
  outFile: string,
  pgDump = process.env.PG_DUMP_PATH ?? "pg_dump",
): Promise<{ rowCounts: Record<string, number> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await checkVersions(client, pgDump, PG_DUMP_MISSING);
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const { rows } = await client.query("SELECT pg_export_snapshot() AS id");
    const rowCounts = await countRows((sql) => client.query(sql));
    const args = ["--format=custom", "--no-owner", "--no-privileges", `--snapshot=${rows[0].id}`];
    const dumped = await run(pgDump, [...args, `--file=${outFile}`, libpqUrl(databaseUrl)], PG_DUMP_MISSING);
    if (dumped.code !== 0) throw new Error(`pg_dump failed: ${dumped.stderr.trim()}`);
    await client.query("COMMIT");
    return { rowCounts };
  } finally {
    await client.end();
  }
}

/** Restores into the (empty) database; one transaction, so a failure leaves it empty. */
export async function restorePostgres(
  databaseUrl: string,
  dumpFile: string,
  pgRestore = process.env.PG_RESTORE_PATH ?? "pg_restore",
): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await checkVersions(client, pgRestore, PG_RESTORE_MISSING);
    const args = ["--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error"];
    const restored = await run(pgRestore, [...args, `--dbname=${libpqUrl(databaseUrl)}`, dumpFile], PG_RESTORE_MISSING);
    if (restored.code !== 0) throw new Error(`pg_restore failed: ${restored.stderr.trim()}`);
    return await countRows((sql) => client.query(sql));
  } finally {
    await client.end();
  }
}

/** The user tables of the database at `url` (a restore refuses a database that has any). */
export async function existingTables(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT schemaname || '.' || tablename AS name FROM pg_tables
       WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
    );
    return rows.map((r) => String(r.name));
  } finally {
    await client.end();
  }
}
