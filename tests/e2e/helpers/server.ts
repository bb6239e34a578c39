import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { adminQuery } from "../../helpers/database.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const run = promisify(execFile);

export interface RunningServer {
  baseUrl: string;
  output: () => string;
  /**
   * Runs one statement on this server's own database (a test's setup: a setting the product has
   * no screen for). False when the server runs on embedded PGlite, which no other process can open.
   */
  sql(statement: string): Promise<boolean>;
  /**
   * Runs one parameterised statement on this server's database, whichever it is: its own database
   * on the PostgreSQL server, or the embedded one through the wire server it opens for `npm run
   * admin` (DATA_DIR/embedded-postgres.url). For seeding what no screen makes (a 5-hour transcript).
   */
  query(statement: string, params?: unknown[]): Promise<void>;
  /**
   * Runs `npm run admin -- <args>` (scripts/admin.ts, the operators' command line) against this
   * server's database, as its operator would on the server; answers what it printed.
   */
  admin(args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the product exactly as `npm start` does, on a free port, with its own data folder and,
 * when DATABASE_URL names a server, its own throw-away database (else embedded PGlite).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "yuelu-e2e-"));
  const port = 19_000 + Math.floor(Math.random() * 900);
  const serverUrl = process.env.DATABASE_URL;
  const database = `yuelu_e2e_${randomBytes(4).toString("hex")}`;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    ...env,
  };
  delete childEnv.NODE_ENV;
  if (serverUrl) {
    await adminQuery(serverUrl, `CREATE DATABASE "${database}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    childEnv.DATABASE_URL = url.toString();
  }
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const start = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output.slice(-3000)}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).ok) break;
    } catch {
      // not yet
    }
    if (Date.now() - start > 120_000) throw new Error(`server not ready:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  // The launcher opens its doors before its worker child is up (issue 44): pages show what the workers can
  // do once their heartbeat is written, a second or two later — wait for it, as a user's first page would.
  if ((childEnv.WORKER_MODE ?? (childEnv.REDIS_URL ? "off" : "embedded")) === "embedded") {
    for (;;) {
      const ready = (await (await fetch(`${baseUrl}/readyz`)).json().catch(() => ({}))) as {
        workers?: { live?: number };
      };
      if ((ready.workers?.live ?? 0) > 0) break;
      if (Date.now() - start > 120_000) throw new Error(`no worker:\n${output.slice(-3000)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return {
    baseUrl,
    output: () => output,
    async sql(statement) {
      if (!serverUrl) return false;
      const client = new pg.Client({ connectionString: childEnv.DATABASE_URL });
      await client.connect();
      try {
        await client.query(statement);
      } finally {
        await client.end();
      }
      return true;
    },
    async query(statement, params = []) {
      const url = serverUrl
        ? childEnv.DATABASE_URL
        : (await readFile(path.join(dataDir, "embedded-postgres.url"), "utf8")).trim();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(statement, params);
      } finally {
        await client.end();
      }
    },
    async admin(args) {
      const cliEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" };
      delete cliEnv.NODE_ENV;
      if (childEnv.DATABASE_URL) cliEnv.DATABASE_URL = childEnv.DATABASE_URL;
      else delete cliEnv.DATABASE_URL;
      const { stdout } = await run("npm", ["run", "--silent", "admin", "--", ...args], { cwd: root, env: cliEnv });
      return stdout;
    },
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      if (serverUrl) await adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
