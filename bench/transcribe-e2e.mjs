// `node bench/transcribe-e2e.mjs [--minutes 10] [--language en]`: one recording end to end through the
// real server — upload (multipart) → dictation → the queue → the worker (decode, VAD, ASR, speakers,
// punctuation, transcript row) → get_progress says 2 — against the configured ASR engine alone on the
// same audio (decoded PCM in, segments out, model already loaded). Uses DATABASE_URL/REDIS_URL when set
// (API and a separate worker process, as docker compose runs them), else `npm start`'s embedded mode.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Redis } from "ioredis";
import { register } from "tsx/esm/api";
import { createThrowawayDatabase, dropThrowawayDatabase } from "./lib/throwaway-database.mjs";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, language: { type: "string", default: "en" } },
});
const minutes = Number(values.minutes);
const language = values.language;
const root = path.resolve(import.meta.dirname, "..");
const PORT = 8093;
const base = `http://127.0.0.1:${PORT}`;

const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-e2e-"));
const children = [];
let stagesLine;
function start(name, args, env) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  let partial = "";
  child.stdout.on("data", (d) => {
    log = (log + d).slice(-20_000);
    // the worker's per-stage wall times, from its "transcription done" log line
    const lines = (partial + d).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) if (line.includes('"transcription done"')) stagesLine = JSON.parse(line);
  });
  child.stderr.on("data", (d) => (log = (log + d).slice(-20_000)));
  child.on("exit", (code) => code && code !== 143 && console.error(`${name} exited ${code}\n${log.slice(-3000)}`));
  children.push(child);
  return child;
}
async function waitFor(what, probe, timeoutMs) {
  const t0 = Date.now();
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

// Redis: a logical database of its own (BENCH_REDIS_DB, 13), so no other install's jobs on the same
// server share the queue (job ids are task-<id>, and a fresh database starts its ids at 1 again).
const redisUrl = (() => {
  if (!process.env.REDIS_URL) return undefined;
  const url = new URL(process.env.REDIS_URL);
  url.pathname = `/${process.env.BENCH_REDIS_DB ?? "13"}`;
  return url.toString();
})();
async function clearRedis() {
  if (!redisUrl) return;
  const redis = new Redis(redisUrl);
  const keys = await redis.keys("yuelu:*");
  if (keys.length) await redis.del(...keys);
  await redis.quit();
}

// A throw-away database on an external server, dropped afterwards.
const benchDb = `yuelu_bench_e2e_${process.pid}`;

try {
  // 1. ~N minutes of English conversation: two espeak-ng voices taking turns, as MP3
  const lines = [
    "The weather was bright and clear this morning, so we decided to walk to the office.",
    "We talked about our plans for the summer and the budget for the next quarter.",
    "My sister wants to visit the mountains, but I would rather stay near the sea.",
    "In the afternoon we will meet our friends at the library to finish the report.",
    "Please send the spreadsheet to every member of the team before Friday.",
    "The train to the city leaves every twenty minutes from the main station.",
  ];
  const parts = [];
  let seconds = 0;
  for (let i = 0; seconds < minutes * 60; i++) {
    const raw = path.join(dataDir, `l${i}.raw.wav`);
    const wav = path.join(dataDir, `l${i}.wav`);
    execFileSync("espeak-ng", ["-v", i % 2 ? "en-us+f3" : "en-us", "-s", "165", "-w", raw, lines[i % lines.length]]);
    execFileSync("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav, "pad", "0", "0.6"]);
    seconds += Number(execFileSync("soxi", ["-D", wav]).toString());
    parts.push(wav);
  }
  const wavAll = path.join(dataDir, "all.wav");
  execFileSync("sox", [...parts, wavAll]);
  const mp3 = path.join(dataDir, "conversation.mp3");
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-i", wavAll, "-b:a", "64k", mp3]);
  for (const p of parts) rmSync(p, { force: true });
  const audio = readFileSync(mp3);
  console.log(
    `audio: ${(seconds / 60).toFixed(1)} min of two-voice English, MP3 ${(audio.length / 1048576).toFixed(1)} MiB`,
  );

  // 2. the server (and a worker process when there is Redis)
  let env = { PORT: String(PORT), HOST: "127.0.0.1", NODE_ENV: "development", LOG_LEVEL: "info", DATA_DIR: dataDir };
  env.RATE_LIMIT_PER_MINUTE = "0";
  if (redisUrl) {
    await clearRedis();
    env.REDIS_URL = redisUrl;
  }
  const benchDbUrl = await createThrowawayDatabase(benchDb);
  if (benchDbUrl) env = { ...env, DATABASE_URL: benchDbUrl };
  start("api", ["scripts/start.mjs"], env);
  await waitFor("the API", async () => (await fetch(`${base}/healthz`)).ok, 120_000);
  if (redisUrl) start("worker", ["--import", "tsx", "apps/worker/src/main.ts"], env);

  // 3. sign in (console SMS hands the code back outside production); the welcome card pays
  const phone = "13900000093";
  const sent = await (
    await fetch(`${base}/account/api/sms/send`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone }),
    })
  ).json();
  const login = await fetch(`${base}/account/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ phone, code: sent.data.devCode }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const api = async (method, url, body) => {
    const res = await fetch(`${base}/voice_yuelu${url}`, {
      method,
      headers: { cookie, ...(body && !(body instanceof FormData) ? { "content-type": "application/json" } : {}) },
      body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
    });
    const json = await res.json();
    if (json.status_code !== 1) throw new Error(`${url}: ${JSON.stringify(json)}`);
    return json.data;
  };

  // 4. upload → dictation → status 2
  const t0 = performance.now();
  const form = new FormData();
  form.append("file", new Blob([audio], { type: "audio/mpeg" }), "conversation.mp3");
  const uploaded = await api("POST", "/api/v1/audio/upload", form);
  const t1 = performance.now();
  await api("POST", "/api/v2/dictation/audio/dictation", {
    fileId: uploaded.fileId,
    dictationParam: { source: 0, answerVersion: 3, language, speakerCount: 0 },
  });
  let last = -1;
  const done = await waitFor(
    "the transcript",
    async () => {
      const [p] = await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${uploaded.fileId}`);
      if (p.progress !== last && p.progress % 10 === 0) process.stdout.write(` ${p.progress}%`);
      last = p.progress;
      if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorCode} ${p.errorMsg}`);
      return p.fileStatus === 2 ? p : undefined;
    },
    60 * 60_000,
  );
  const t2 = performance.now();
  const text = await api("GET", `/api/v2/audio/text/get_text?fileId=${done.fileId}`).catch(() => null);
  const segments = text ? JSON.parse(text.asrResult) : [];
  console.log("\n");

  // 5. the engine alone, in this process, on the same audio
  register();
  const { loadConfig } = await import("../packages/runtime/src/config.ts");
  const { configuredAsrEngines } = await import("../apps/worker/src/engines/asr/factory.ts");
  const { decodeToPcm } = await import("../apps/worker/src/audio/pcm.ts");
  const { detectSpeech } = await import("../apps/worker/src/audio/vad.ts");
  const engine = configuredAsrEngines(loadConfig({ ...process.env, LOG_LEVEL: "silent" }))(language);
  await engine.ready?.(language);
  const pcm = await decodeToPcm(mp3);
  const regions = detectSpeech(pcm);
  const e0 = performance.now();
  const alone = await engine.transcribe(pcm.samples, { language, regions });
  const e1 = performance.now();

  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const audioMs = (pcm.length / 16_000) * 1000;
  console.log(
    `database: ${process.env.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"}, queue: ${redisUrl ? "Redis, separate worker process" : "in-process"}`,
  );
  console.log(`upload (${(audio.length / 1048576).toFixed(1)} MiB)            ${s(t1 - t0)}`);
  console.log(
    `dictation → transcript (status 2)   ${s(t2 - t1)}   RTF ${((t2 - t1) / audioMs).toFixed(3)}   ${segments.length} segments, ${new Set(segments.map((x) => x.spkName)).size} speakers`,
  );
  console.log(`upload → transcript                 ${s(t2 - t0)}   RTF ${((t2 - t0) / audioMs).toFixed(3)}`);
  console.log(
    `${engine.name} alone (PCM in, loaded)   ${s(e1 - e0)}   RTF ${((e1 - e0) / audioMs).toFixed(3)}   ${alone.segments.length} segments`,
  );
  if (stagesLine) {
    const { decodeMs, vadMs, asrMs, diarizeMs, saveMs, wallSeconds } = stagesLine;
    console.log(
      `worker stages: decode ${s(decodeMs)}, VAD ${s(vadMs)}, ASR ${s(asrMs)}, speakers ${s(diarizeMs)}, save ${s(saveMs)} (job ${wallSeconds.toFixed(1)} s)`,
    );
  }
  console.log(`upload → transcript ÷ engine alone    ${((t2 - t0) / (e1 - e0)).toFixed(2)}×   (goal ≤ 1.15×)`);
  console.log(
    `pipeline overhead over the engine   ${(((t2 - t1) / (e1 - e0) - 1) * 100).toFixed(0)} % (decode, VAD, speakers, DB, queue, model load in the worker)`,
  );
} finally {
  for (const c of children) c.kill("SIGTERM");
  await new Promise((r) => setTimeout(r, 1500));
  rmSync(dataDir, { recursive: true, force: true });
  await clearRedis().catch(() => {});
  await dropThrowawayDatabase(benchDb).catch((error) => console.error(`could not drop ${benchDb}: ${error.message}`));
}
process.exit(0);
