// A benchmark's own database on the PostgreSQL server DATABASE_URL names, dropped afterwards, so a
// bench never touches real data. Without DATABASE_URL, benches run the embedded database instead.
// The same helpers as the tests' (tests/helpers/database.ts), loaded through tsx.
import { register } from "tsx/esm/api";

register();
const database = await import("../../tests/helpers/database.ts");

/** Creates `name` on the server and answers its URL, or null when no server is configured. */
export async function createThrowawayDatabase(name, serverUrl = process.env.DATABASE_URL) {
  return serverUrl ? database.createThrowawayDatabase(serverUrl, name) : null;
}

export async function dropThrowawayDatabase(name, serverUrl = process.env.DATABASE_URL) {
  if (serverUrl) await database.dropThrowawayDatabase(serverUrl, name);
}
