// `node bench/footprint.mjs`: every row of issue 44's table in one run (bench/README.md "Footprint"):
//  1. `npm start` idle, embedded, IDLE seconds after start, no jobs: RSS of the whole process tree
//  2. `npm start` → /healthz, data folder already made (warm), web app already built
//  3. the same on a fresh data folder (migrations, seed)
//  4. node_modules (this checkout's; --fresh-install: a copy of the checkout after `npm ci`)
//  5. GET /voice_yuelu/api/v1/user/info ÷ a bare Fastify hello-world, same run, 50 connections,
//     PostgreSQL + Redis (DATABASE_URL and REDIS_URL set; skipped otherwise)
//  6. the same, embedded
//  7. (--long) one 3-hour recording transcribed, embedded: peak RSS of the process tree
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 \
//     node bench/footprint.mjs [--idle 60] [--duration 10] [--long] [--fresh-install]
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    idle: { type: "string", default: "60" },
    duration: { type: "string", default: "10" },
    long: { type: "boolean", default: false },
    "fresh-install": { type: "boolean", default: false },
  },
});
const root = path.resolve(import.meta.dirname, "..");
const PORT = 8096;
const base = `http://127.0.0.1:${PORT}`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rows = [];
const row = (measure, value, goal) => {
  rows.push([measure, value, goal]);
  console.log(`  ${measure}: ${value} (goal ${goal})`);
};

/** The pids of `pid` and every process under it (children of children; the worker runs in its own group). */
function tree(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {}
  }
  const out = [pid];
  for (let i = 0; i < out.length; i++) for (const [child, parent] of parents) if (parent === out[i]) out.push(child);
  return out;
}

/** RSS (MiB) per process of the tree, and the total. */
function treeRss(pid) {
  const parts = [];
  for (const p of tree(pid)) {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean);
      if (kb > 0) parts.push({ pid: p, mib: kb / 1024, what: cmd.slice(0, 3).join(" ").slice(0, 70) });
    } catch {}
  }
  return { parts, total: parts.reduce((s, p) => s + p.mib, 0) };
}

/** `npm start` as the README runs it (embedded: no DATABASE_URL, no REDIS_URL). */
function npmStart(dataDir, extraEnv = {}) {
  const env = { ...process.env, PORT: String(PORT), HOST: "127.0.0.1", DATA_DIR: dataDir, ...extraEnv };
  for (const k of ["DATABASE_URL", "REDIS_URL", "NODE_ENV", "WORKER_MODE"]) delete env[k];
  const child = spawn("npm", ["start"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let log = "";
  child.stdout.on("data", (d) => (log = (log + d).slice(-20_000)));
  child.stderr.on("data", (d) => (log = (log + d).slice(-20_000)));
  return { child, log: () => log };
}

async function untilHealthy(started, timeoutMs = 180_000) {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited:\n${started.log().slice(-3000)}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return (performance.now() - t0) / 1000;
    } catch {}
    await sleep(25);
  }
  throw new Error(`no /healthz after ${timeoutMs} ms:\n${started.log().slice(-3000)}`);
}

async function stop(started) {
  const exited = new Promise((resolve) => started.child.once("exit", resolve));
  try {
    process.kill(-started.child.pid, "SIGTERM"); // npm, its shell and the launcher (the worker follows it)
  } catch {}
  await Promise.race([exited, sleep(40_000)]);
}

const du = (dir) => Number(execFileSync("du", ["-sk", dir]).toString().split("\t")[0]) / 1024;

console.log(
  `footprint (issue 44) — ${process.version}, ${readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?"}, ${execFileSync("nproc").toString().trim()} cores`,
);

// the web app is built first (the rows measure the server's start, not Vite's)
if (!existsSync(path.join(root, "apps/web/dist/index.html")))
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
execFileSync(process.execPath, [path.join(root, "scripts/server-build.mjs")], { cwd: root, stdio: "ignore" });

// 3, then 1 (the same process, idle), then 2
const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-footprint-"));
try {
  let started = npmStart(dataDir);
  const fresh = await untilHealthy(started);
  const idleSeconds = Number(values.idle);
  await sleep(idleSeconds * 1000);
  const idle = treeRss(started.child.pid);
  await stop(started);
  const warm = [];
  for (let i = 0; i < 3; i++) {
    started = npmStart(dataDir);
    warm.push(await untilHealthy(started));
    await stop(started);
  }
  warm.sort((a, b) => a - b);
  row(
    `npm start idle, embedded, ${idleSeconds} s after start, no jobs: RSS of the process tree`,
    `${idle.total.toFixed(0)} MiB (${idle.parts.map((p) => `${p.what.split(" ").slice(0, 2).join(" ")} ${p.mib.toFixed(0)}`).join(", ")})`,
    "≤ 400 MB",
  );
  row(
    "npm start → /healthz, warm (median of 3)",
    `${warm[1].toFixed(1)} s (${warm.map((w) => w.toFixed(1)).join(", ")})`,
    "≤ 3 s",
  );
  row("npm start → /healthz, fresh data folder", `${fresh.toFixed(1)} s`, "≤ 8 s");
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

// 4
if (values["fresh-install"]) {
  const copy = mkdtempSync(path.join(tmpdir(), "yuelu-install-"));
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: root })
    .toString()
    .split("\0")
    .filter(Boolean);
  for (const f of files)
    if (existsSync(path.join(root, f))) cpSync(path.join(root, f), path.join(copy, f), { recursive: true });
  execFileSync("npm", ["ci", "--no-audit", "--no-fund"], {
    cwd: copy,
    stdio: "inherit",
    env: { ...process.env, ONNXRUNTIME_NODE_INSTALL_CUDA: "skip", YUELU_SKIP_WHISPER_BUILD: "1" },
  });
  row("node_modules after npm ci (a fresh copy)", `${du(path.join(copy, "node_modules")).toFixed(0)} MiB`, "≤ 1.0 GB");
  rmSync(copy, { recursive: true, force: true });
} else {
  row(
    "node_modules (this checkout; --fresh-install for npm ci's)",
    `${du(path.join(root, "node_modules")).toFixed(0)} MiB`,
    "≤ 1.0 GB",
  );
}

// 5, 6: bench/user-info.mjs, which runs the hello-world beside user/info
function userInfo(env) {
  const out = execFileSync(process.execPath, [path.join(root, "bench/user-info.mjs"), "--duration", values.duration], {
    cwd: root,
    env,
  }).toString();
  const hello = /hello-world\s+(\d+) req\/s/.exec(out)?.[1];
  const info = /user\/info\s+(\d+) req\/s\s+p50\s+(\d+) ms\s+p99\s+(\d+) ms/.exec(out);
  const ratio = /ratio ([\d.]+)/.exec(out)?.[1];
  return `${ratio}× (${info?.[1]} vs ${hello} req/s), user/info p99 ${info?.[3]} ms`;
}
if (process.env.DATABASE_URL && process.env.REDIS_URL) {
  row("user/info ÷ hello-world, 50 connections, PostgreSQL + Redis", userInfo(process.env), "≥ 0.5×, p99 < 20 ms");
} else {
  row(
    "user/info ÷ hello-world, 50 connections, PostgreSQL + Redis",
    "skipped (set DATABASE_URL and REDIS_URL)",
    "≥ 0.5×",
  );
}
const embeddedEnv = { ...process.env };
delete embeddedEnv.DATABASE_URL;
delete embeddedEnv.REDIS_URL;
row("user/info ÷ hello-world, 50 connections, embedded", userInfo(embeddedEnv), "≥ 0.5×");

// 7
if (values.long) {
  const out = execFileSync(process.execPath, [path.join(root, "bench/long-recording.mjs")], {
    cwd: root,
    env: embeddedEnv,
    stdio: ["ignore", "pipe", "inherit"],
  }).toString();
  const peak = /peak RSS of the process tree: ([\d.]+) MiB/.exec(out)?.[1];
  row("one 3-hour recording transcribed, embedded: peak RSS of the process tree", `${peak} MiB`, "≤ 1.2 GB");
} else {
  row("one 3-hour recording transcribed, embedded: peak RSS of the process tree", "skipped (--long)", "≤ 1.2 GB");
}

console.log("\n| measure | figure | goal |\n|---|---|---|");
for (const [m, v, g] of rows) console.log(`| ${m} | ${v} | ${g} |`);
process.exit(0);
