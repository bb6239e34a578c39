import pg from "pg";

/** Throw-away databases on a PostgreSQL server (tests and benches never touch real data). */

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs one statement (CREATE/DROP DATABASE…) on the server's maintenance database. */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, "postgres") });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates `name` on the server and answers its URL. */
export async function createThrowawayDatabase(serverUrl: string, name: string): Promise<string> {
  await adminQuery(serverUrl, `CREATE DATABASE "${name}"`);
  return withDatabase(serverUrl, name);
}

export async function dropThrowawayDatabase(serverUrl: string, name: string): Promise<void> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
