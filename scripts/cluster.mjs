// `node scripts/cluster.mjs`: Yuelu as several machines would run it, on one machine — N API
// processes and M worker processes that share only PostgreSQL, Redis and an S3-compatible store
// (each has its own DATA_DIR and port), behind a small round-robin front. docker-compose.yml has the
// same shape with the same variables.
//
//   DATABASE_URL=… REDIS_URL=… FILE_STORE=s3 S3_ENDPOINT=… S3_BUCKET=… S3_ACCESS_KEY_ID=… \
//   S3_SECRET_ACCESS_KEY=… S3_FORCE_PATH_STYLE=true COOKIE_SECRET=… \
//   node scripts/cluster.mjs [--apis 2] [--workers 2] [--port 8080] [--data-dir ./data/cluster]
//
// API n listens on port+n (8081, 8082…), the front on --port. Prints one JSON line when every node
// is ready: {"front":…, "apis":[{url,pid}], "workers":[{pid}]}. Ctrl-C (SIGTERM) stops them all.
//
// A rolling restart, one node at a time: write `restart api-1` (or `worker-2`…) on its stdin. The node
// gets SIGTERM (it drains: requests in flight finish, new ones go to the other API through the front;
// jobs finish or are cut at their grace and resume elsewhere), starts again, and once it is ready the
// script prints {"restarted":"api-1","pid":…}.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseArgs } from "node:util";
import { builtEntry, ensureServerBuild } from "./server-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const { values: args } = parseArgs({
  options: {
    apis: { type: "string", default: "2" },
    workers: { type: "string", default: "2" },
    port: { type: "string", default: "8080" },
    "data-dir": { type: "string", default: path.join(root, "data", "cluster") },
  },
});
const apiCount = Number(args.apis);
const workerCount = Number(args.workers);
const frontPort = Number(args.port);

for (const name of ["DATABASE_URL", "REDIS_URL"]) {
  if (!process.env[name]) fail(`${name} is required: the nodes share PostgreSQL and Redis, nothing else`);
}
if (process.env.FILE_STORE !== "s3") {
  fail("FILE_STORE=s3 (with S3_ENDPOINT, S3_BUCKET, keys) is required: nodes share no disk");
}
// Every API must sign and check the same session cookies.
const cookieSecret = process.env.COOKIE_SECRET ?? randomBytes(32).toString("hex");

function fail(message) {
  console.error(`[cluster] ${message}`);
  process.exit(2);
}

ensureServerBuild();

const children = [];
/** every node by name ("api-1", "worker-2"): how to start it again */
const nodes = new Map();
function start(kind, index, extraEnv) {
  const dataDir = path.resolve(args["data-dir"], `${kind}-${index}`);
  mkdirSync(dataDir, { recursive: true });
  const entry = kind === "api" ? "apps/api/src/main.ts" : "apps/worker/src/main.ts";
  // the compiled entry (scripts/server-build.mjs, built before the first node starts)
  const child = spawn(process.execPath, [builtEntry(entry)], {
    cwd: root,
    env: { ...process.env, COOKIE_SECRET: cookieSecret, DATA_DIR: dataDir, WORKER_MODE: "off", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tag = `[${kind}-${index}]`;
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding("utf8");
    let rest = "";
    stream.on("data", (chunk) => {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) if (line) process.stderr.write(`${tag} ${line}\n`);
    });
  }
  child.on("exit", (code, signal) => process.stderr.write(`${tag} exited (${signal ?? code})\n`));
  children.push(child);
  nodes.set(`${kind}-${index}`, { kind, index, extraEnv, child });
  return child;
}

const apis = Array.from({ length: apiCount }, (_, i) => {
  const port = frontPort + i + 1;
  const child = start("api", i + 1, { PORT: String(port), HOST: process.env.HOST ?? "127.0.0.1" });
  return { url: `http://127.0.0.1:${port}`, port, pid: child.pid };
});
const workers = Array.from({ length: workerCount }, (_, i) => ({ pid: start("worker", i + 1, {}).pid }));

// ── the front: round robin over the ready nodes; a node that refuses connections is skipped for a
// few seconds, one whose /readyz fails (draining on SIGTERM, database down) until it passes again ──
// (hand-written because it is ~40 lines: http-proxy is unmaintained and warns on Node 22+, and
// http-proxy-3 needs Node 22; in production an operator puts nginx or a cloud balancer here)
const downUntil = new Map();
let next = 0;
function pickBackend(skip) {
  for (let i = 0; i < apis.length; i++) {
    const api = apis[(next + i) % apis.length];
    if (skip.has(api.port) || (downUntil.get(api.port) ?? 0) > Date.now()) continue;
    // a node failing its health check is used only when no other is left
    if (notReady.has(api.port) && apis.some((a) => !skip.has(a.port) && !notReady.has(a.port))) continue;
    next = (next + i + 1) % apis.length;
    return api;
  }
  return undefined;
}

// Health checks, as a balancer makes them: twice a second, so a draining API (DRAIN_SECONDS) gets no new requests.
const notReady = new Set();
const checks = setInterval(() => {
  for (const api of apis) {
    fetch(`${api.url}/readyz`, { signal: AbortSignal.timeout(1000) })
      .then((r) => (r.ok ? notReady.delete(api.port) : notReady.add(api.port)))
      .catch(() => notReady.add(api.port));
  }
}, 500);
checks.unref();

// Hop-by-hop headers belong to one connection: passing the API's `keep-alive: timeout=72` on would
// let a client keep an idle connection to the front longer than the front keeps it (a reset request).
const HOP_BY_HOP = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"];
function endToEnd(headers) {
  const out = { ...headers };
  for (const h of HOP_BY_HOP) delete out[h];
  return out;
}

function forward(req, res, tried = new Set()) {
  const api = pickBackend(tried);
  if (!api) {
    res.writeHead(502, { "content-type": "text/plain" }).end("no API node is reachable\n");
    return;
  }
  tried.add(api.port);
  const headers = { ...endToEnd(req.headers), "x-forwarded-for": req.socket.remoteAddress ?? "" };
  if (req.headers["transfer-encoding"]) headers["transfer-encoding"] = req.headers["transfer-encoding"];
  const upstream = http.request(
    { host: "127.0.0.1", port: api.port, method: req.method, path: req.url, headers, agent: false },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
      answer.pipe(res);
    },
  );
  let connected = false;
  upstream.on("socket", (socket) =>
    socket.once("connect", () => {
      connected = true;
      req.pipe(upstream);
    }),
  );
  upstream.on("error", (error) => {
    if (!connected) {
      // Nothing was sent to this node: the request goes, whole, to the next one.
      downUntil.set(api.port, Date.now() + 5000);
      forward(req, res, tried);
      return;
    }
    process.stderr.write(`[front] ${api.url}${req.url}: ${error.message}\n`);
    if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
    res.end();
  });
}

const front = http.createServer((req, res) => {
  req.pause();
  forward(req, res);
});
front.listen(frontPort, process.env.HOST ?? "127.0.0.1");

async function ready(url, workersLive = () => true) {
  for (;;) {
    try {
      const res = await fetch(`${url}/readyz`);
      const body = await res.json();
      // (a production install shows worker details to operators only: then "ready" is enough)
      if (
        body.status === "ready" &&
        (body.workers === undefined || body.workers.live >= workerCount) &&
        workersLive(body)
      )
        return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
}
await Promise.all(apis.map((api) => ready(api.url)));
console.log(JSON.stringify({ front: `http://127.0.0.1:${frontPort}`, apis, workers }));

async function restart(name) {
  const node = nodes.get(name);
  if (!node) {
    console.log(JSON.stringify({ error: `no node ${name}: ${[...nodes.keys()].join(", ")}` }));
    return;
  }
  const old = node.child;
  if (old.exitCode === null && old.signalCode === null) {
    const exited = new Promise((r) => old.once("exit", r));
    old.kill("SIGTERM");
    await exited;
  }
  children.splice(children.indexOf(old), 1);
  const child = start(node.kind, node.index, node.extraEnv);
  if (node.kind === "api") {
    const api = apis[node.index - 1];
    api.pid = child.pid;
    await ready(api.url);
    // the front may have marked it down while it was away: it is back now
    downUntil.delete(api.port);
    notReady.delete(api.port);
  } else {
    workers[node.index - 1].pid = child.pid;
    // a worker is ready once every worker beats again (the stopped one removed its heartbeat)
    await ready(apis[0].url);
  }
  console.log(JSON.stringify({ restarted: name, pid: child.pid }));
}

// Commands on stdin, one at a time in the order given.
let commands = Promise.resolve();
let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const [verb, name] = line.trim().split(/\s+/);
    if (verb === "restart" && name) commands = commands.then(() => restart(name));
  }
});
// (stdin closed, or never given: the nodes keep running until SIGTERM)
process.stdin.on("error", () => {});

function stop() {
  clearInterval(checks);
  front.close();
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(0), 25_000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(() =>
    process.exit(0),
  );
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
