// A benchmark's own database on the PostgreSQL server DATABASE_URL names, dropped afterwards, so a
// bench never touches real data. Without DATABASE_URL, benches run the embedded database instead.
import pg from "pg";

async function admin(serverUrl, sql) {
  const url = new URL(serverUrl);
  url.pathname = "/postgres";
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Creates `name` on the server and answers its URL, or null when no server is configured. */
export async function createThrowawayDatabase(name, serverUrl = process.env.DATABASE_URL) {
  if (!serverUrl) return null;
  await admin(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropThrowawayDatabase(name, serverUrl = process.env.DATABASE_URL) {
  if (serverUrl) await admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
