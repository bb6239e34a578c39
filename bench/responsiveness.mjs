// `node bench/responsiveness.mjs [--minutes 40] [--seconds 8]`: is the API still fast while a long
// file is transcribed? The real server (npm start's embedded mode; with DATABASE_URL/REDIS_URL set:
// PostgreSQL, Redis and a separate worker process), one signed-in user with 30 records. Measured twice,
// idle and then while one long recording transcribes:
//   - the records list (all_list), one request at a time: p50/p95/p99 latency
//   - all_list with 10 connections: requests per second and p99
//   - /healthz, one at a time: p99
// Goals (issue 18): busy all_list p95 ≤ 2× idle, busy throughput ≥ 50 % of idle, busy /healthz p99 < 50 ms.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { register } from "tsx/esm/api";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "40" }, seconds: { type: "string", default: "8" } },
});
const minutes = Number(values.minutes);
const duration = Number(values.seconds);

register();
const { programPath } = await import("../packages/runtime/src/tools.ts");
const ffmpeg = programPath("ffmpeg");
const jfk = path.resolve(import.meta.dirname, "../node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");

const dir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-busy-"));
let server;

/** One autocannon run: latencies (ms) and requests per second. */
function load(url, cookie, connections) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections, duration, headers: cookie ? { cookie } : {} }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
}

async function measure(base, cookie) {
  const list = `${base}/voice_yuelu/api/v3/audio/all_list?page=1&pageSize=20`;
  const single = await load(list, cookie, 1);
  const ten = await load(list, cookie, 10);
  const health = await load(`${base}/healthz`, undefined, 1);
  for (const r of [single, ten, health]) {
    if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx answers, ${r.errors} errors`);
  }
  return {
    p50: single.latency.p50,
    p95: single.latency.p97_5 === undefined ? single.latency.p99 : percentile95(single),
    p99: single.latency.p99,
    rps10: ten.requests.average,
    p99at10: ten.latency.p99,
    health99: health.latency.p99,
  };
}

/** autocannon reports p90 and p97.5; p95 is read between them (linear), which is what the goal names. */
function percentile95(r) {
  return r.latency.p90 + ((r.latency.p97_5 - r.latency.p90) * (95 - 90)) / (97.5 - 90);
}

try {
  // 1. a long recording: real speech (whisper.cpp's jfk sample) repeated, 16 kHz mono MP3
  const long = path.join(dir, "long.mp3");
  const loops = Math.ceil((minutes * 60) / 11);
  execFileSync(ffmpeg, [
    "-nostdin",
    "-loglevel",
    "error",
    "-stream_loop",
    String(loops),
    "-i",
    jfk,
    "-t",
    String(minutes * 60),
    "-ar",
    "16000",
    "-ac",
    "1",
    "-b:a",
    "48k",
    long,
  ]);

  server = await startYuelu({ name: "busy", port: 8094 });
  const { api, cookie } = await signIn(server.base, "13900000094");
  const clip = new Blob([await (await import("node:fs/promises")).readFile(jfk)], { type: "audio/mpeg" });
  for (let i = 0; i < 30; i++) {
    const form = new FormData();
    form.append("file", clip, `meeting-${i}.mp3`);
    await api("POST", "/api/v1/audio/upload", form);
  }
  // warm-up (JIT, caches, connection pools)
  await load(`${server.base}/voice_yuelu/api/v3/audio/all_list?page=1&pageSize=20`, cookie, 4);

  const idle = await measure(server.base, cookie);

  const form = new FormData();
  form.append(
    "file",
    new Blob([await (await import("node:fs/promises")).readFile(long)], { type: "audio/mpeg" }),
    "long.mp3",
  );
  const uploaded = await api("POST", "/api/v1/audio/upload", form);
  await api("POST", "/api/v2/dictation/audio/dictation", {
    fileId: uploaded.fileId,
    dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
  });
  const progress = async () =>
    (await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${uploaded.fileId}`))[0];
  // measure once the worker is really recognising (decoding done, progress moving)
  await waitFor("the transcription to run", async () => (await progress()).progress >= 5, 300_000);
  const busy = await measure(server.base, cookie);
  const after = await progress();
  const stillRunning = after.fileStatus === 1;

  const ms = (v) => `${v.toFixed(1)} ms`.padStart(10);
  const row = (label, i, b, unit = ms) => console.log(`${label.padEnd(34)}${unit(i)}${unit(b)}`);
  console.log(`\n${server.setup}; ${minutes}-minute recording, ${duration} s per measurement`);
  console.log(`${"".padEnd(34)}${"idle".padStart(10)}${"busy".padStart(10)}`);
  row("all_list, 1 connection, p50", idle.p50, busy.p50);
  row("all_list, 1 connection, p95", idle.p95, busy.p95);
  row("all_list, 1 connection, p99", idle.p99, busy.p99);
  row("all_list, 10 connections, req/s", idle.rps10, busy.rps10, (v) => `${v.toFixed(0)}`.padStart(10));
  row("all_list, 10 connections, p99", idle.p99at10, busy.p99at10);
  row("/healthz, 1 connection, p99", idle.health99, busy.health99);
  console.log(
    `busy ÷ idle: all_list p95 ${(busy.p95 / idle.p95).toFixed(2)}× (goal ≤ 2×), ` +
      `throughput ${((busy.rps10 / idle.rps10) * 100).toFixed(0)} % (goal ≥ 50 %), ` +
      `/healthz p99 ${busy.health99.toFixed(1)} ms (goal < 50 ms)`,
  );
  console.log(
    stillRunning
      ? `the transcription was still running when the busy measurement ended (progress ${after.progress} %)`
      : `WARNING: the transcription ended before the busy measurement did (status ${after.fileStatus}): use --minutes higher`,
  );
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
