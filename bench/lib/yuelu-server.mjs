// The real product for a benchmark: `scripts/start.mjs` (and, with Redis, a separate worker process as
// docker compose runs it) on a throw-away database and a Redis logical database of its own, a user
// signed in through the account service, and an `api` helper that unwraps the envelope.
// Uses DATABASE_URL/REDIS_URL when set, else `npm start`'s embedded mode.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { register } from "tsx/esm/api";
import { createThrowawayDatabase, dropThrowawayDatabase } from "./throwaway-database.mjs";

// The benches share the tests' helpers, written in TypeScript: load them through tsx.
register();
const { signInOverHttp } = await import("../../tests/helpers/client.ts");

const root = path.resolve(import.meta.dirname, "../..");

export async function waitFor(what, probe, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * Starts the product. `onLogLine(json)` sees every JSON log line of its processes (LOG_LEVEL info).
 * Redis: logical database BENCH_REDIS_DB (13), so no other install's jobs share the queue (job ids are
 * task-<id>, and a fresh database starts its ids at 1 again).
 */
export async function startYuelu({ name, port, env = {}, onLogLine }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `yuelu-bench-${name}-`));
  const benchDb = `yuelu_bench_${name.replace(/\W/g, "_")}_${process.pid}`;
  const redisUrl = (() => {
    if (!process.env.REDIS_URL) return undefined;
    const url = new URL(process.env.REDIS_URL);
    url.pathname = `/${process.env.BENCH_REDIS_DB ?? "13"}`;
    return url.toString();
  })();
  const clearRedis = async () => {
    if (!redisUrl) return;
    const redis = new Redis(redisUrl);
    const keys = await redis.keys("yuelu:*");
    if (keys.length) await redis.del(...keys);
    await redis.quit();
  };

  const children = [];
  const start = (label, args, childEnv) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...childEnv },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let log = "";
    let partial = "";
    child.stdout.on("data", (d) => {
      log = (log + d).slice(-20_000);
      const lines = (partial + d).split("\n");
      partial = lines.pop() ?? "";
      if (onLogLine) for (const line of lines) if (line.startsWith("{")) onLogLine(JSON.parse(line));
    });
    child.stderr.on("data", (d) => (log = (log + d).slice(-20_000)));
    child.on("exit", (code) => code && code !== 143 && console.error(`${label} exited ${code}\n${log.slice(-3000)}`));
    children.push(child);
    return child;
  };

  const base = `http://127.0.0.1:${port}`;
  let fullEnv = {
    PORT: String(port),
    HOST: "127.0.0.1",
    NODE_ENV: "development",
    LOG_LEVEL: "info",
    DATA_DIR: dataDir,
    RATE_LIMIT_PER_MINUTE: "0",
    ...env,
  };
  if (redisUrl) {
    await clearRedis();
    fullEnv.REDIS_URL = redisUrl;
  }
  const benchDbUrl = await createThrowawayDatabase(benchDb);
  if (benchDbUrl) fullEnv = { ...fullEnv, DATABASE_URL: benchDbUrl };
  const api = start("api", ["scripts/start.mjs"], fullEnv);
  await waitFor("the API", async () => (await fetch(`${base}/healthz`)).ok, 120_000);
  if (redisUrl) start("worker", ["scripts/run.mjs", "apps/worker/src/main.ts"], fullEnv);
  // A worker that is still starting would be timed as queue wait: measure a running install.
  await waitFor(
    "a live worker",
    async () => ((await (await fetch(`${base}/readyz`)).json()).workers?.live ?? 0) > 0,
    120_000,
  );

  return {
    base,
    apiPid: api.pid,
    setup: `database: ${benchDbUrl ? "PostgreSQL" : "embedded PGlite"}, workers: ${redisUrl ? "Redis queue, a separate worker process" : "npm start's child process"}`,
    /** The product's database, for seeding: its throw-away database, or the embedded one's wire server. */
    async databaseUrl() {
      return benchDbUrl ?? readFileSync(path.join(dataDir, "embedded-postgres.url"), "utf8").trim();
    },
    async stop() {
      for (const c of children) c.kill("SIGTERM");
      await new Promise((r) => setTimeout(r, 1500));
      rmSync(dataDir, { recursive: true, force: true });
      await clearRedis().catch(() => {});
      await dropThrowawayDatabase(benchDb).catch((error) =>
        console.error(`could not drop ${benchDb}: ${error.message}`),
      );
    },
  };
}

/**
 * Signs `phone` in (the console SMS provider hands the code back to a client on this machine);
 * answers the session `cookie` and `api`, one call that resolves with `data` and throws on any other
 * status code. The same client as the tests' (tests/helpers/client.ts).
 */
export async function signIn(base, phone) {
  return signInOverHttp(base, phone);
}
