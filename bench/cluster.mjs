// Several nodes (issue 19): user/info throughput through the front with 1 vs 2 API nodes, and
// transcription jobs a minute with 1 vs 2 worker processes (short real clips), in one run, with
// scripts/cluster.mjs on PostgreSQL + Redis + an S3-compatible server this script starts (s3rver).
//   DATABASE_URL=… REDIS_URL=… node bench/cluster.mjs [--duration 10] [--connections 50] [--clips 12]
// On one machine the nodes share its cores: the figures say what a second node adds *here*; on
// separate machines each node brings its own.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { startS3rver } from "./lib/s3rver.mjs";
import { createThrowawayDatabase, dropThrowawayDatabase } from "./lib/throwaway-database.mjs";
import { signIn } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "50" },
    clips: { type: "string", default: "12" },
  },
});
if (!process.env.DATABASE_URL || !process.env.REDIS_URL) {
  console.error("bench/cluster.mjs needs DATABASE_URL and REDIS_URL (the nodes share them)");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const JFK = readFileSync(path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startCluster(nodes, env, port) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-cluster-"));
  const child = spawn(
    process.execPath,
    [
      "scripts/cluster.mjs",
      "--apis",
      String(nodes),
      "--workers",
      String(nodes),
      "--port",
      String(port),
      "--data-dir",
      dataDir,
    ],
    { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let log = "";
  child.stderr.on("data", (d) => (log = (log + d).slice(-5000)));
  const info = await new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve(JSON.parse(line));
    });
    child.once("exit", (code) => reject(new Error(`cluster.mjs exited ${code}:\n${log}`)));
  });
  return {
    ...info,
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(30_000)]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function cannon(url, cookie) {
  return new Promise((resolve, reject) =>
    autocannon(
      { url, connections: Number(values.connections), duration: Number(values.duration), headers: { cookie } },
      (err, res) => (err ? reject(err) : resolve(res)),
    ),
  );
}

/** Uploads `count` JFK clips, queues them in one call, and answers jobs a minute from the call to the last one done. */
async function jobsPerMinute(client, count) {
  const ids = [];
  for (let i = 0; i < count; i++) {
    const form = new FormData();
    form.append("file", new Blob([JFK]), `jfk-${i}.mp3`);
    ids.push((await client.api("POST", "/api/v1/audio/upload", form)).fileId);
  }
  const started = Date.now();
  await client.api("POST", "/api/v2/dictation/audio/dictation_batch", {
    fileIds: ids.join(","),
    dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
  });
  for (;;) {
    const progress = await client.api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${ids.join(",")}`);
    if (progress.some((p) => p.fileStatus === -1)) throw new Error("a transcription failed");
    if (progress.every((p) => p.fileStatus === 2)) break;
    await sleep(250);
  }
  return (count / (Date.now() - started)) * 60_000;
}

const s3 = await startS3rver();
const rows = [];
try {
  for (const nodes of [1, 2]) {
    const name = `yuelu_bench_cluster_${nodes}_${process.pid}`;
    const databaseUrl = await createThrowawayDatabase(name);
    const cluster = await startCluster(
      nodes,
      {
        ...s3.env,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: "warn",
        WEB_DIST: "/nonexistent",
        ASR_AUTO_FETCH: "false",
        RATE_LIMIT_PER_MINUTE: "0",
        COOKIE_SECRET: randomBytes(32).toString("hex"),
      },
      8300 + nodes * 10,
    );
    try {
      const direct = await signIn(cluster.apis[0].url, `1390000${String(nodes).padStart(4, "0")}`);
      const res = await cannon(`${cluster.front}/voice_yuelu/api/v1/user/info`, direct.cookie);
      const jpm = await jobsPerMinute(direct, Number(values.clips));
      rows.push({ nodes, rps: res.requests.average, p99: res.latency.p99, errors: res.errors + res.non2xx, jpm });
    } finally {
      await cluster.stop();
      await dropThrowawayDatabase(name);
    }
  }
} finally {
  s3.stop();
}

console.log("\nnodes | user/info through the front (req/s, p99) | transcription jobs/min (11 s JFK clips)");
for (const r of rows) {
  console.log(
    `${r.nodes} API + ${r.nodes} worker | ${Math.round(r.rps)} req/s, p99 ${r.p99} ms${r.errors ? `, ${r.errors} errors` : ""} | ${r.jpm.toFixed(1)}`,
  );
}
const [one, two] = rows;
if (one && two) {
  console.log(
    `2 nodes vs 1: user/info ×${(two.rps / one.rps).toFixed(2)}, jobs/min ×${(two.jpm / one.jpm).toFixed(2)} (${availableParallelism()} cores shared by every node)`,
  );
}
