// Streams a 1 GiB upload to POST /voice_yuelu/api/v1/audio/upload and samples the server's resident memory
// (VmRSS of /proc/<pid>/status) while it runs: the upload must stream to the store, never sit in memory.
// The file is a real WAV (48 kHz stereo 16-bit, ~1 h 33 min: under the 5-hour limit), generated as it is sent.
// Uses DATABASE_URL/REDIS_URL when set (a throw-away database is created and dropped), else the embedded database.
// --store s3: FILE_STORE=s3 against an S3-compatible server this script starts (s3rver, its own process).
// Usage: node bench/upload-memory.mjs [--bytes 1073741824] [--port 8093] [--store local|s3]
import { readFileSync } from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import { startS3rver } from "./lib/s3rver.mjs";
import { wavStream } from "./lib/wav-stream.mjs";
import { signIn, startYuelu } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: {
    bytes: { type: "string", default: String(1024 ** 3) },
    port: { type: "string", default: "8093" },
    store: { type: "string", default: "local" },
  },
});
const fileBytes = Number(values.bytes);
const port = Number(values.port);
const GOAL_MB = 150;

// ── the server, as `npm start` runs it (request logging off, no web app) ──

const s3 = values.store === "s3" ? await startS3rver() : undefined;
const server = await startYuelu({
  name: "upload",
  port,
  env: { LOG_LEVEL: "warn", WEB_DIST: "/nonexistent", ...(s3?.env ?? {}) },
});
const origin = server.base;

/** Resident memory of the server process, in bytes. */
function rss() {
  const status = readFileSync(`/proc/${server.apiPid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** POSTs one multipart body whose file part is `file.stream`; resolves with the status and the JSON answer. */
function upload(cookie, file) {
  const boundary = `----yuelubench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-1GiB.wav"\r\n` +
      "Content-Type: audio/wav\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}/voice_yuelu/api/v1/audio/upload`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + file.size + tail.length),
      },
    });
    req.on("error", reject);
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.write(head);
    file.stream.on("end", () => req.end(tail));
    file.stream.pipe(req, { end: false });
  });
}

try {
  const { cookie } = await signIn(origin, "13900000002");

  // Settle, then take the baseline as the highest RSS over a quiet second.
  await new Promise((r) => setTimeout(r, 1500));
  let baseline = 0;
  for (let i = 0; i < 10; i++) {
    baseline = Math.max(baseline, rss());
    await new Promise((r) => setTimeout(r, 100));
  }
  let peak = baseline;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, rss());
    } catch {}
  }, 50);

  const file = wavStream(fileBytes);
  const started = Date.now();
  const res = await upload(cookie, file);
  const seconds = (Date.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rss());

  const answer = JSON.parse(res.body);
  if (answer.status_code !== 1) throw new Error(`upload refused: HTTP ${res.status} ${res.body}`);
  const mb = (n) => (n / 1024 / 1024).toFixed(1);
  const growth = peak - baseline;
  console.log(
    `\n[${values.store} store] uploaded ${mb(file.size)} MiB (WAV, ${(file.seconds / 60).toFixed(1)} min) in ${seconds.toFixed(1)} s ` +
      `(${mb(file.size / seconds)} MiB/s); record ${answer.data.fileId}, timeLen ${answer.data.timeLen} s`,
  );
  console.log(`server RSS: baseline ${mb(baseline)} MiB, peak ${mb(peak)} MiB`);
  console.log(
    `peak RSS growth ${mb(growth)} MiB (goal < ${GOAL_MB} MB)${growth < GOAL_MB * 1e6 ? "" : "  ← OVER GOAL"}`,
  );
} finally {
  await server.stop();
  s3?.stop();
}
