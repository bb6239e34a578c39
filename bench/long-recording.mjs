// `node bench/long-recording.mjs [--hours 3]`: one long recording through the real product, embedded
// (`npm start`'s launcher and its worker child): upload, dictation, transcript — sampling the RSS of the
// whole process tree every second, and printing its peak (issue 44: ≤ 1.2 GB for 3 hours). The audio is
// whisper.cpp's JFK sample (npm ships it) repeated with a second of silence between repeats, as MP3.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({ options: { hours: { type: "string", default: "3" } } });
const seconds = Math.round(Number(values.hours) * 3600) - 10; // the welcome card pays for 3 h
const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "yuelu-long-"));

function treeRss(pid) {
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) for (const [c, p] of parents) if (p === pids[i]) pids.push(c);
  let kb = 0;
  for (const p of pids) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return kb / 1024;
}

let server;
let sampler;
try {
  const sample = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
  // one repeat (the sample and a second of silence) as PCM, looped to length, then encoded once
  const piece = path.join(dir, "piece.wav");
  execFileSync("ffmpeg", [
    ...["-nostdin", "-loglevel", "error", "-i", sample, "-af", "apad=pad_dur=1", "-ac", "1", "-ar", "16000", piece],
  ]);
  const file = path.join(dir, "long.mp3");
  execFileSync("ffmpeg", [
    ...["-nostdin", "-loglevel", "error", "-stream_loop", "-1", "-i", piece, "-t", String(seconds)],
    ...["-ac", "1", "-ar", "16000", "-c:a", "libmp3lame", "-b:a", "32k", file],
  ]);
  const audio = readFileSync(file);
  console.log(
    `audio: ${(seconds / 3600).toFixed(2)} h of English speech (MP3, ${(audio.length / 1048576).toFixed(1)} MiB)`,
  );

  server = await startYuelu({ name: "long", port: 8098, env: { LOG_LEVEL: "warn" } });
  let peak = 0;
  sampler = setInterval(() => {
    peak = Math.max(peak, treeRss(server.apiPid));
  }, 1000);
  const { api } = await signIn(server.base, "13900000044");
  const form = new FormData();
  form.append("file", new Blob([audio], { type: "audio/mpeg" }), "long.mp3");
  const uploaded = await api("POST", "/api/v1/audio/upload", form);
  await api("POST", "/api/v2/dictation/audio/dictation", {
    fileId: uploaded.fileId,
    dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
  });
  const t0 = performance.now();
  let last = -1;
  await waitFor(
    "the transcript",
    async () => {
      const [p] = await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${uploaded.fileId}`);
      if (p.progress !== last && p.progress % 10 === 0) process.stderr.write(` ${p.progress}%`);
      last = p.progress;
      if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorCode} ${p.errorMsg}`);
      return p.fileStatus === 2 ? p : undefined;
    },
    4 * 3600_000,
  );
  clearInterval(sampler);
  console.log(`\ntranscribed in ${((performance.now() - t0) / 60_000).toFixed(1)} min (${server.setup})`);
  console.log(`peak RSS of the process tree: ${peak.toFixed(0)} MiB`);
} finally {
  clearInterval(sampler);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
