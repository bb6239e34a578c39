// `node bench/openai-transcriptions.mjs [--minutes 10] [--rounds 3]`: issue 22's overhead of the
// OpenAI-compatible endpoint. The same recording (JFK's 11 s of real speech looped to N minutes, MP3),
// in the same run, against the same server and worker:
//   web path — POST /voice_yuelu/api/v1/audio/upload, POST …/dictation, poll get_progress every 300 ms
//              until status 2, GET get_text (what a browser or a script does today);
//   /v1      — one `client.audio.transcriptions.create()` of the official `openai` npm client with an
//              API key (upload, charge, queue, wait on the event bus, answer the transcript).
// Rounds alternate which path goes first (a warm worker favours the second). Goal: /v1 ≤ 5 % slower.
// Each run also shows the worker's job (queue wait + transcription, from its "transcription done" log
// line) and what was left outside it — the path's own cost, which the ASR time's noise does not blur.
// Uses DATABASE_URL/REDIS_URL when set (API and a separate worker process), else `npm start`'s embedded mode.
import { execFileSync } from "node:child_process";
import { createReadStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import OpenAI from "openai";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: { minutes: { type: "string", default: "10" }, rounds: { type: "string", default: "3" } },
});
const minutes = Number(values.minutes);
const rounds = Number(values.rounds);
const root = path.resolve(import.meta.dirname, "..");
const JFK_WAV = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/bindings/go/samples/jfk.wav");

const dataDir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-openai-"));
let server;
try {
  const mp3 = path.join(dataDir, "speech.mp3");
  execFileSync("ffmpeg", [
    ...["-hide_banner", "-v", "error", "-y", "-stream_loop", "-1", "-i", JFK_WAV],
    ...["-t", String(minutes * 60), "-ac", "1", "-c:a", "libmp3lame", "-b:a", "32k", mp3],
  ]);
  const audio = readFileSync(mp3);
  console.log(`audio: ${minutes} min of real speech (JFK looped), MP3 ${(audio.length / 1048576).toFixed(1)} MiB`);

  /** the worker's "transcription done" lines by fileId: queue wait + preparation + transcription (ms) */
  const jobMs = new Map();
  server = await startYuelu({
    name: "openai",
    port: 8097,
    onLogLine: (line) => {
      if (line.msg === "transcription done") {
        jobMs.set(line.fileId, (line.waitedMs ?? 0) + (line.prepareMs ?? 0) + line.wallSeconds * 1000);
      }
    },
  });
  // the welcome gifts (a 3-hour card, a month's membership) pay for the rounds
  const { api } = await signIn(server.base, "13900000097");
  const { key } = await api("POST", "/api/v1/api_keys/create", { name: "bench" });
  const client = new OpenAI({ apiKey: key, baseURL: `${server.base}/v1`, maxRetries: 0, timeout: 60 * 60_000 });

  async function webPath() {
    const t0 = performance.now();
    const form = new FormData();
    form.append("file", new Blob([audio], { type: "audio/mpeg" }), "speech.mp3");
    const { fileId } = await api("POST", "/api/v1/audio/upload", form);
    await api("POST", "/api/v2/dictation/audio/dictation", {
      fileId,
      dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
    });
    await waitFor(
      "the transcript",
      async () => {
        const [p] = await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${fileId}`);
        if (p.fileStatus === -1) throw new Error(`transcription failed: ${p.errorCode} ${p.errorMsg}`);
        return p.fileStatus === 2;
      },
      60 * 60_000,
    );
    const text = await api("GET", `/api/v2/audio/text/get_text?fileId=${fileId}`);
    if (!/country/i.test(text.asrResult)) throw new Error("the web path's transcript lacks the speech");
    return { ms: performance.now() - t0, fileId };
  }

  async function openAiPath() {
    const t0 = performance.now();
    // verbose_json: the segments, as the web path's get_text brings them, and the record's id
    const answer = await client.audio.transcriptions.create({
      file: createReadStream(mp3),
      model: "whisper-1",
      language: "en",
      response_format: "verbose_json",
    });
    if (!/country/i.test(answer.text)) throw new Error("the /v1 transcript lacks the speech");
    return { ms: performance.now() - t0, fileId: answer.yuelu_file_id };
  }

  const runs = { web: { total: [], outside: [] }, v1: { total: [], outside: [] } };
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 ? ["web", "v1"] : ["v1", "web"];
    for (const which of order) {
      const { ms, fileId } = which === "web" ? await webPath() : await openAiPath();
      await waitFor("the worker's log line", async () => jobMs.has(fileId), 10_000).catch(() => {});
      const job = jobMs.get(fileId) ?? Number.NaN;
      runs[which].total.push(ms);
      runs[which].outside.push(ms - job);
      const label = which === "web" ? "web path" : "/v1     ";
      console.log(`round ${round}: ${label}  ${s(ms)}   (worker job ${s(job)}, outside it ${s(ms - job)})`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const [w, o] = [median(runs.web.total), median(runs.v1.total)];
  console.log(`\n${server.setup}; ${rounds} rounds, medians:`);
  console.log(
    `web path (upload + dictation + poll + get_text)   ${s(w)}   RTF ${(w / (minutes * 60_000)).toFixed(3)}   outside the job ${s(median(runs.web.outside))}`,
  );
  console.log(
    `/v1/audio/transcriptions (openai client)          ${s(o)}   RTF ${(o / (minutes * 60_000)).toFixed(3)}   outside the job ${s(median(runs.v1.outside))}`,
  );
  console.log(`overhead of /v1 over the web path   ${(((o - w) / w) * 100).toFixed(1)} %   (goal ≤ 5 %)`);
} finally {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
