// Measures GET /voice_yuelu/api/v1/user/info with a signed-in session against a bare Fastify
// hello-world, in the same run and on the same machine: req/s, p50/p99 latency and the ratio.
// Uses DATABASE_URL/REDIS_URL when set (as production would), else the embedded database.
// Also prints each server's CPU time per request (user + system ÷ requests, from /proc): on a shared
// machine it moves far less than the throughput does.
// Usage: node bench/user-info.mjs [--duration 10] [--connections 50]
//   BENCH_API_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the API process.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { createThrowawayDatabase, dropThrowawayDatabase } from "./lib/throwaway-database.mjs";

const { values } = parseArgs({
  options: { duration: { type: "string", default: "10" }, connections: { type: "string", default: "50" } },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = path.resolve(import.meta.dirname, "..");

function startServer(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.on("data", (d) => (log += d));
  child.stderr.on("data", (d) => (log += d));
  child.on("exit", (code) => code && code !== 143 && console.error(`${name} exited ${code}\n${log.slice(-2000)}`));
  return child;
}

async function waitFor(url, timeoutMs = 90_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not come up`);
}

/** The CPU seconds (user + system) a process has used so far, from /proc (null where there is none). */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux)
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Runs autocannon and notes the server's CPU time per request over that run (µs). */
async function measured(pid, opts) {
  const before = cpuSeconds(pid);
  const result = await run(opts);
  const after = cpuSeconds(pid);
  const requests = result.requests.total;
  result.cpuUsPerRequest = before === null || after === null || !requests ? null : ((after - before) * 1e6) / requests;
  return result;
}

function run(opts) {
  return new Promise((resolve, reject) =>
    autocannon({ connections, duration, ...opts }, (err, res) => (err ? reject(err) : resolve(res))),
  );
}

const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-"));
// With an external server, a database of its own that is dropped afterwards.
const benchDb = `yuelu_bench_${process.pid}`;
const benchDbUrl = await createThrowawayDatabase(benchDb);
const databaseEnv = benchDbUrl ? { DATABASE_URL: benchDbUrl } : {};
const hello = startServer("hello", ["bench/servers/hello.mjs"], { PORT: "8091" });
const apiNodeArgs = process.env.BENCH_API_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
const api = startServer("api", [...apiNodeArgs, "scripts/start.mjs"], {
  PORT: "8092",
  HOST: "127.0.0.1",
  NODE_ENV: "development",
  LOG_LEVEL: "warn",
  DATA_DIR: dataDir,
  // Keep the per-IP limiter in the path (its cost is real) but high enough not to refuse the bench.
  RATE_LIMIT_PER_MINUTE: process.env.BENCH_RATE_LIMIT ?? "1000000000",
  ...databaseEnv,
});
try {
  await waitFor("http://127.0.0.1:8091/");
  await waitFor("http://127.0.0.1:8092/healthz");
  // Embedded, the worker child starts once the doors are open, its start-up queries running on the
  // database in the API's process: measure the running install, not its first seconds.
  if (!benchDbUrl) {
    for (let i = 0; i < 300; i++) {
      const ready = await (await fetch("http://127.0.0.1:8092/readyz")).json().catch(() => ({}));
      if ((ready.workers?.live ?? 0) > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
  const phone = "13900000001";
  const sent = await (
    await fetch("http://127.0.0.1:8092/account/api/sms/send", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone }),
    })
  ).json();
  const login = await fetch("http://127.0.0.1:8092/account/api/login", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone, code: sent.data.devCode }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const check = await (
    await fetch("http://127.0.0.1:8092/voice_yuelu/api/v1/user/info", { headers: { cookie } })
  ).json();
  if (check.status_code !== 1) throw new Error(`not signed in: ${JSON.stringify(check)}`);

  // Warm both up, then measure.
  await run({ url: "http://127.0.0.1:8091/", duration: 2 });
  await run({ url: "http://127.0.0.1:8092/voice_yuelu/api/v1/user/info", headers: { cookie }, duration: 2 });
  const base = await measured(hello.pid, { url: "http://127.0.0.1:8091/" });
  const real = await measured(api.pid, {
    url: "http://127.0.0.1:8092/voice_yuelu/api/v1/user/info",
    headers: { cookie },
  });
  if (real.non2xx || real.errors) throw new Error(`user/info had ${real.non2xx} non-2xx and ${real.errors} errors`);

  const cpu = (r) => (r.cpuUsPerRequest === null ? "?" : r.cpuUsPerRequest.toFixed(1));
  const row = (name, r) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   server CPU ${cpu(r).padStart(5)} µs/req`;
  const db = process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";
  console.log(
    `\nconnections ${connections}, ${duration}s each, database: ${db}, redis: ${process.env.REDIS_URL ? "yes" : "no"}`,
  );
  console.log(row("bare Fastify hello-world", base));
  console.log(row("GET /voice_yuelu/api/v1/user/info", real));
  const ratio = real.requests.average / base.requests.average;
  console.log(`ratio ${ratio.toFixed(2)} (goal >= 0.5), user/info p99 ${real.latency.p99} ms (goal < 20 ms)`);
} finally {
  hello.kill("SIGTERM");
  api.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1500));
  rmSync(dataDir, { recursive: true, force: true });
  await dropThrowawayDatabase(benchDb);
}
