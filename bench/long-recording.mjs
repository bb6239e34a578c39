// `node bench/long-recording.mjs [--hours 3] [--stop-at 40]`: one long recording through the real product,
// embedded (`npm start`'s launcher and its worker child): upload, dictation, transcript — sampling the RSS of
// the whole process tree every second, and printing its peak (issue 44: ≤ 1.2 GB for 3 hours) and each
// process's own peak (VmHWM). Every 10 % of progress it prints the tree's RSS and the worker's, so the stage
// that holds the most shows (the job's bands: decode to 8 %, front end and speech regions to 10 %,
// recognition to 88 %, speakers to 96 %, word times and saving after). `--stop-at` ends the run once the
// progress reaches that percentage (a long run on a small machine). The audio is whisper.cpp's JFK sample
// (npm ships it) repeated with a second of silence between repeats, as MP3.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: { hours: { type: "string", default: "3" }, "stop-at": { type: "string", default: "100" } },
});
const stopAt = Number(values["stop-at"]);
const seconds = Math.round(Number(values.hours) * 3600) - 10; // the welcome card pays for 3 h
const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "yuelu-long-"));

/** The process tree under `pid`: each process's RSS and peak RSS (VmHWM), in MiB, and what it runs. */
function tree(pid) {
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
  const out = [];
  for (const p of pids) {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      const command = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").filter(Boolean);
      const what =
        p === pid ? "launcher" : /node$/.test(command[0] ?? "") ? "worker" : path.basename(command[0] ?? "?");
      out.push({ pid: p, what, rss: kb("VmRSS") / 1024, hwm: kb("VmHWM") / 1024 });
    } catch {}
  }
  return out;
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
  const peaks = new Map(); // pid → { what, hwm }
  let now = [];
  sampler = setInterval(() => {
    now = tree(server.apiPid);
    peak = Math.max(
      peak,
      now.reduce((sum, p) => sum + p.rss, 0),
    );
    for (const p of now) peaks.set(p.pid, { what: p.what, hwm: Math.max(p.hwm, peaks.get(p.pid)?.hwm ?? 0) });
  }, 1000);
  const worker = () => now.filter((p) => p.what === "worker").reduce((a, b) => (b.rss > (a?.rss ?? 0) ? b : a), null);
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
  let shown = -10;
  const finished = await waitFor(
    "the transcript",
    async () => {
      const [p] = await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${uploaded.fileId}`);
      if (p.progress !== last && p.progress >= shown + 10) {
        shown = p.progress - (p.progress % 10);
        const w = worker();
        const total = now.reduce((sum, q) => sum + q.rss, 0);
        const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
        console.log(
          `${String(p.progress).padStart(3)} % at ${minutes} min: tree ${total.toFixed(0)} MiB, worker ${w ? `${w.rss.toFixed(0)} MiB (peak so far ${w.hwm.toFixed(0)})` : "-"}, peak of the tree so far ${peak.toFixed(0)} MiB`,
        );
      }
      last = p.progress;
      if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorCode} ${p.errorMsg}`);
      if (p.progress >= stopAt && p.fileStatus !== 2) return { stopped: p.progress };
      return p.fileStatus === 2 ? p : undefined;
    },
    4 * 3600_000,
  );
  clearInterval(sampler);
  const minutes = ((performance.now() - t0) / 60_000).toFixed(1);
  console.log(
    finished.stopped !== undefined
      ? `stopped at ${finished.stopped} % after ${minutes} min (${server.setup})`
      : `transcribed in ${minutes} min (${server.setup})`,
  );
  console.log(`peak RSS of the process tree: ${peak.toFixed(0)} MiB`);
  for (const [pid, p] of peaks) if (p.hwm > 20) console.log(`  ${p.what} (${pid}): peak ${p.hwm.toFixed(0)} MiB`);
} finally {
  clearInterval(sampler);
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
