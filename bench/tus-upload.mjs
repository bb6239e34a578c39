// Uploads the same generated 1 GiB WAV twice to one server — as today's single request
// (POST /voice_yuelu/api/v1/audio/upload, multipart) and over tus with the official tus-js-client
// (POST /voice_yuelu/api/v1/audio/uploads, then 8 MiB PATCHes, as the web app sends it) — and prints
// each one's throughput and the server's peak resident memory (VmRSS of /proc/<pid>/status) while it runs.
// Uses DATABASE_URL/REDIS_URL when set (a throw-away database), else the embedded database.
// --store s3: FILE_STORE=s3 against an s3rver this script starts.
// Usage: node bench/tus-upload.mjs [--bytes 1073741824] [--chunk 8388608] [--port 8094] [--store local|s3]
import { readFileSync } from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import * as tus from "tus-js-client";
import { startS3rver } from "./lib/s3rver.mjs";
import { wavStream } from "./lib/wav-stream.mjs";
import { signIn, startYuelu } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: {
    bytes: { type: "string", default: String(1024 ** 3) },
    chunk: { type: "string", default: String(8 * 1024 * 1024) },
    port: { type: "string", default: "8094" },
    store: { type: "string", default: "local" },
  },
});
const fileBytes = Number(values.bytes);
const chunkBytes = Number(values.chunk);

const s3 = values.store === "s3" ? await startS3rver() : undefined;
const server = await startYuelu({
  name: "tus",
  port: Number(values.port),
  env: { LOG_LEVEL: "warn", WEB_DIST: "/nonexistent", RATE_LIMIT_PER_MINUTE: "0", ...(s3?.env ?? {}) },
});
const origin = server.base;

function rss() {
  const status = readFileSync(`/proc/${server.apiPid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** Runs `send`, sampling the server's RSS every 50 ms; answers the seconds taken and the peak growth. */
async function measured(send) {
  await new Promise((r) => setTimeout(r, 1000));
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
  const started = Date.now();
  try {
    const answer = await send();
    return { answer, seconds: (Date.now() - started) / 1000, baseline, growth: Math.max(peak, rss()) - baseline };
  } finally {
    clearInterval(sampler);
  }
}

/** Today's upload: one multipart request carrying the whole file. */
function singleRequest(cookie, file) {
  const boundary = `----yuelubench${Date.now().toString(16)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-single.wav"\r\n` +
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
      res.on("end", () => resolve(JSON.parse(body)));
    });
    req.write(head);
    file.stream.on("end", () => req.end(tail));
    file.stream.pipe(req, { end: false });
  });
}

/** The resumable upload, as an independent client sends it. */
function overTus(cookie, file) {
  return new Promise((resolve, reject) => {
    const upload = new tus.Upload(file.stream, {
      endpoint: `${origin}/voice_yuelu/api/v1/audio/uploads`,
      uploadSize: file.size,
      chunkSize: chunkBytes,
      headers: { cookie },
      metadata: { filename: "bench-tus.wav", filetype: "audio/wav" },
      onSuccess: ({ lastResponse }) => resolve(JSON.parse(lastResponse.getBody())),
      onError: reject,
    });
    upload.start();
  });
}

const mb = (n) => (n / 1024 / 1024).toFixed(1);
try {
  const { cookie } = await signIn(origin, "13900000003");
  const rows = [];
  for (const [label, send] of [
    ["single request", singleRequest],
    [`tus, ${mb(chunkBytes)} MiB chunks`, overTus],
  ]) {
    const file = wavStream(fileBytes);
    const run = await measured(() => send(cookie, file));
    if (run.answer.status_code !== 1) throw new Error(`${label}: refused ${JSON.stringify(run.answer)}`);
    rows.push({ label, file, ...run });
  }
  console.log(`\n[${values.store} store] ${mb(fileBytes)} MiB WAV (${(rows[0].file.seconds / 60).toFixed(1)} min)`);
  for (const r of rows) {
    console.log(
      `${r.label.padEnd(24)} ${r.seconds.toFixed(1).padStart(6)} s  ${mb(r.file.size / r.seconds).padStart(7)} MiB/s  ` +
        `server RSS baseline ${mb(r.baseline)} MiB, peak growth ${mb(r.growth)} MiB  (record ${r.answer.data.fileId}, ${r.answer.data.timeLen} s)`,
    );
  }
} finally {
  await server.stop();
  s3?.stop();
}
