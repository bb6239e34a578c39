import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../../packages/runtime/src/embedded-postgres.ts";

/**
 * The embedded database is the install's alone (issue 26): its loopback port wants the generated
 * password (another local user who finds the port can read nothing), and its files are not readable or
 * writable by anyone else.
 */
let dir: string;
let embedded: EmbeddedPostgres;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-private-"));
  embedded = await startEmbeddedPostgres(dir);
}, 60_000);
afterAll(async () => {
  await embedded?.stop();
  await rm(dir, { recursive: true, force: true });
});

async function tryConnect(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query("SELECT 40 + 2 AS answer");
    return String(rows[0].answer);
  } catch (error) {
    return `refused: ${(error as { code?: string }).code} ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

describe("the embedded database's port", () => {
  it("serves whoever gives the generated password, and nobody else", async () => {
    const url = new URL(embedded.url);
    expect(url.password.length).toBeGreaterThanOrEqual(32);
    expect(await tryConnect(embedded.url)).toBe("42");
    const anonymous = new URL(embedded.url);
    anonymous.password = "";
    expect(await tryConnect(anonymous.toString())).toMatch(/^refused/);
    const guessed = new URL(embedded.url);
    guessed.password = "postgres";
    expect(await tryConnect(guessed.toString())).toMatch(/^refused: 28P01 password authentication failed/);
    // and it still serves the right one afterwards
    expect(await tryConnect(embedded.url)).toBe("42");
  });

  it("keeps the password beside the cookie secret, readable by the install's user only", async () => {
    expect((await stat(path.join(dir, "embedded-postgres.secret"))).mode & 0o777).toBe(0o600);
  });
});

describe("the embedded database's files", () => {
  it("are 600 in 700 folders, the data folder included: no other user reads or changes them", async () => {
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    const modes = new Map<number, number>();
    const walk = async (d: string) => {
      for (const e of await readdir(d, { withFileTypes: true })) {
        const full = path.join(d, e.name);
        const mode = (await stat(full)).mode & 0o777;
        if (e.isDirectory()) {
          expect(mode, full).toBe(0o700);
          await walk(full);
        } else modes.set(mode, (modes.get(mode) ?? 0) + 1);
      }
    };
    await walk(path.join(dir, "pgdata"));
    expect([...modes.keys()]).toEqual([0o600]);
    expect(modes.get(0o600)).toBeGreaterThan(100);
  });
});
