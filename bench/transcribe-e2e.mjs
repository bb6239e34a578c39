// `node bench/transcribe-e2e.mjs [--minutes 10] [--language en]`: one recording end to end through the
// real server — upload (multipart) → dictation → the queue → the worker (decode, VAD, ASR, speakers,
// punctuation, transcript row) → get_progress says 2 — against the configured ASR engine alone on the
// same audio (decoded PCM in, segments out, model already loaded). Uses DATABASE_URL/REDIS_URL when set
// (API and a separate worker process, as docker compose runs them), else `npm start`'s embedded mode.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { register } from "tsx/esm/api";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, language: { type: "string", default: "en" } },
});
const minutes = Number(values.minutes);
const language = values.language;

const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-e2e-audio-"));
/** the worker's "transcription done" log line: wall time per stage */
let stagesLine;
let server;

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

  // 2. the server (and a worker process when there is Redis), 3. a user (the welcome card pays)
  server = await startYuelu({
    name: "e2e",
    port: 8093,
    onLogLine: (line) => {
      if (line.msg === "transcription done") stagesLine = line;
    },
  });
  const { api } = await signIn(server.base, "13900000093");

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
  console.log(server.setup);
  console.log(`upload (${(audio.length / 1048576).toFixed(1)} MiB)            ${s(t1 - t0)}`);
  console.log(
    `dictation → transcript (status 2)   ${s(t2 - t1)}   RTF ${((t2 - t1) / audioMs).toFixed(3)}   ${segments.length} segments, ${new Set(segments.map((x) => x.spkName)).size} speakers`,
  );
  console.log(`upload → transcript                 ${s(t2 - t0)}   RTF ${((t2 - t0) / audioMs).toFixed(3)}`);
  console.log(
    `${engine.name} alone (PCM in, loaded)   ${s(e1 - e0)}   RTF ${((e1 - e0) / audioMs).toFixed(3)}   ${alone.segments.length} segments`,
  );
  if (stagesLine) {
    const { decodeMs, frontEndMs, asrMs, diarizeMs, saveMs, wallSeconds, waitedMs, prepareMs } = stagesLine;
    console.log(
      `worker stages: queued ${s(waitedMs ?? 0)}, prepare ${s(prepareMs ?? 0)}, decode ${s(decodeMs)}, front end + VAD ${s(frontEndMs)}, ASR ${s(asrMs)}, speakers ${s(diarizeMs)}, save ${s(saveMs)} (job ${wallSeconds.toFixed(1)} s)`,
    );
  }
  console.log(`upload → transcript ÷ engine alone    ${((t2 - t0) / (e1 - e0)).toFixed(2)}×   (goal ≤ 1.15×)`);
  console.log(
    `pipeline overhead over the engine   ${(((t2 - t1) / (e1 - e0) - 1) * 100).toFixed(0)} % (decode, VAD, speakers, DB, queue, model load in the worker)`,
  );
} finally {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
