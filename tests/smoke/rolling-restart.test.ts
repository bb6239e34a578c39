import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type ApiClient, signInOverHttp } from "../helpers/client.ts";
import { type RunningCluster, startCluster } from "../helpers/cluster.ts";
import { adminQuery, withDatabase } from "../helpers/database.ts";
import { startS3, type TestS3 } from "../helpers/s3.ts";

/**
 * Issue 32: a deploy restarts the install one node at a time (`scripts/cluster.mjs`, the shape of
 * docker-compose.yml: 2 APIs and 2 workers behind a front) while users keep calling it — and not one
 * request fails. Each API drains on SIGTERM (requests in flight finish, it stops listening) and the
 * front sends the rest to the other API; the workers' jobs finish or resume on the other worker.
 */
const external = inject("databaseMode") === "external" && Boolean(process.env.REDIS_URL);
if (!external) {
  console.warn(
    "\n⚠️  tests/smoke/rolling-restart.test.ts NOT RUN: several nodes need a real PostgreSQL (DATABASE_URL) and Redis (REDIS_URL)\n",
  );
}

const port = 23_000 + (process.pid % 500) * 4;
/** requests a second the "users" send, steadily, all through the front */
const RATE = 12;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let s3: TestS3;
let dir: string;
let dropDatabase = async () => {};
let cluster: RunningCluster;
let front: ApiClient;

/**
 * A steady stream of cheap authenticated calls (three GETs and a POST that writes) until `stop()`:
 * every answer that is not HTTP 200 with status_code 1 — or no answer at all — is a failure.
 */
function steadyLoad(client: ApiClient) {
  const calls: (() => Promise<unknown>)[] = [
    () => client.api("GET", "/api/v1/user/info"),
    () => client.api("GET", "/api/v3/audio/all_list?page=1&pageSize=10"),
    () => client.api("GET", "/api/v2/audio/no_transfer_list"),
    () => client.api("POST", "/api/v1/user/update_info", { nickName: `rolling ${sent % 1000}` }),
  ];
  let sent = 0;
  let answered = 0;
  const failures: string[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let running = true;
  const loop = (async () => {
    const started = Date.now();
    while (running) {
      const call = calls[sent % calls.length]!;
      sent++;
      const p = call()
        .then(() => {
          answered++;
        })
        .catch((error: Error) => {
          failures.push(
            `${new Date().toISOString()} ${error.message}${error.cause ? ` (${String(error.cause)})` : ""}`,
          );
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
      // keep the pace: the n-th call leaves n/RATE seconds after the start
      await sleep(Math.max(0, started + (sent * 1000) / RATE - Date.now()));
    }
  })();
  return {
    failures,
    counts: () => ({ sent, answered }),
    async stop() {
      running = false;
      await loop;
      await Promise.all([...inFlight]);
    },
  };
}

describe.runIf(external)("a rolling restart of 2 APIs and 2 workers under steady traffic", () => {
  beforeAll(async () => {
    s3 = await startS3("rolling");
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-rolling-"));
    const serverUrl = inject("serverUrl");
    const name = `yuelu_rolling_${randomBytes(5).toString("hex")}`;
    await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${inject("templateDatabase")}"`);
    dropDatabase = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      port,
      dataDir: dir,
      env: {
        ...process.env,
        ...s3.env,
        DATABASE_URL: withDatabase(serverUrl, name),
        REDIS_URL: process.env.REDIS_URL,
        NODE_ENV: "development",
        LOG_LEVEL: "warn",
        WEB_DIST: path.join(dir, "no-web"),
        ASR_AUTO_FETCH: "false",
        // the stream is one user's: no flood guard in the way of what is measured
        RATE_LIMIT_PER_MINUTE: "0",
        COOKIE_SECRET: randomBytes(32).toString("hex"),
        // a worker with nothing to do stops at once; the grace only matters for running jobs
        WORKER_GRACE_SECONDS: "10",
      },
    });
    // Signed in on API 1 directly (the console SMS provider answers local callers only), then used through the front.
    front = (await signInOverHttp(cluster.apis[0]!.url, "13600000932")).at(cluster.front);
  }, 180_000);

  afterAll(async () => {
    await cluster?.stop();
    await dropDatabase().catch(() => {});
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("restarts api-1, api-2, worker-1 and worker-2 in turn with no failed request", { timeout: 420_000 }, async () => {
    const load = steadyLoad(front);
    const pids: Record<string, number> = {};
    const before = {
      "api-1": cluster.apis[0]!.pid,
      "api-2": cluster.apis[1]!.pid,
      "worker-1": cluster.workers[0]!.pid,
      "worker-2": cluster.workers[1]!.pid,
    };
    const timings: Record<string, number> = {};
    try {
      await sleep(2000);
      for (const node of ["api-1", "api-2", "worker-1", "worker-2"] as const) {
        const started = Date.now();
        pids[node] = await cluster.restart(node);
        timings[node] = Date.now() - started;
        // traffic on the restarted install before the next node goes
        await sleep(2000);
      }
    } finally {
      await load.stop();
    }
    const { sent, answered } = load.counts();
    console.log(
      JSON.stringify({ rollingRestart: { sent, answered, failed: load.failures.length, restartMs: timings } }),
    );
    expect(load.failures, cluster.output().slice(-3000)).toEqual([]);
    expect(answered).toBe(sent);
    // steady traffic all along: at least RATE/2 a second over the whole restart
    const seconds = Object.values(timings).reduce((a, b) => a + b, 0) / 1000 + 10;
    expect(sent).toBeGreaterThan((RATE / 2) * seconds);
    // every node really is a new process
    for (const node of Object.keys(before) as (keyof typeof before)[]) {
      expect(pids[node]).toBeGreaterThan(0);
      expect(pids[node]).not.toBe(before[node]);
    }
    // and the install still serves through the front, from both APIs
    for (const api of cluster.apis) {
      const info = await front.at(api.url).api<{ userId: number }>("GET", "/api/v1/user/info");
      expect(info.userId).toBe(front.userId);
    }
  });
});
