// `node bench/queue-burst.mjs [--files 20] [--seconds 30]`: N recordings uploaded at once and queued in
// one dictation_batch call; every one must finish (status 2) with a transcript that holds its words.
// Prints the upload time, when the first and the last finished, the audio throughput, and each
// file's queue wait and run time. The files rotate through wav, mp3, m4a and mp4 (video), each a
// different order of two espeak-ng voices. Uses DATABASE_URL/REDIS_URL when set, else embedded.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { signIn, startYuelu, waitFor } from "./lib/yuelu-server.mjs";

const { values } = parseArgs({
  options: { files: { type: "string", default: "20" }, seconds: { type: "string", default: "30" } },
});
const fileCount = Number(values.files);
const secondsEach = Number(values.seconds);

// Each line with a word its transcript must hold.
const LINES = [
  ["The weather was bright and clear this morning.", "clear"],
  ["We talked about the plans for the next quarter.", "plans"],
  ["My sister wants to visit the mountains in July.", "mountains"],
  ["Please send the report to the team before Friday.", "report"],
  ["The train to the city leaves every twenty minutes.", "twenty"],
  ["Our friends will meet us at the library after lunch.", "library"],
];
const FORMATS = [
  { ext: "wav", type: "audio/wav", args: [] },
  { ext: "mp3", type: "audio/mpeg", args: ["-b:a", "64k"] },
  { ext: "m4a", type: "audio/mp4", args: ["-c:a", "aac", "-b:a", "64k"] },
  // a real video: a small black picture beside the speech
  {
    ext: "mp4",
    type: "video/mp4",
    input: ["-f", "lavfi", "-i", "color=c=black:s=160x120:r=5"],
    args: ["-shortest", "-c:v", "mpeg4", "-c:a", "aac", "-b:a", "64k"],
  },
];

const dir = mkdtempSync(path.join(tmpdir(), "yuelu-bench-burst-audio-"));
let server;
try {
  // 1. the clips: each line once per voice, then per file a rotation of them up to ~secondsEach
  const pieces = [];
  for (const [i, [line]] of LINES.entries()) {
    for (const voice of ["en-us", "en-us+f3"]) {
      const raw = path.join(dir, `p${pieces.length}.raw.wav`);
      const wav = path.join(dir, `p${pieces.length}.wav`);
      execFileSync("espeak-ng", ["-v", voice, "-s", "165", "-w", raw, line]);
      execFileSync("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav, "pad", "0", "0.6"]);
      pieces.push({ wav, line: i, seconds: Number(execFileSync("soxi", ["-D", wav]).toString()) });
    }
  }
  const files = [];
  for (let f = 0; f < fileCount; f++) {
    const chosen = [];
    let seconds = 0;
    for (let k = 0; seconds < secondsEach; k++) {
      const piece = pieces[(f * 5 + k * 7) % pieces.length];
      chosen.push(piece);
      seconds += piece.seconds;
    }
    const wav = path.join(dir, `clip${f}.wav`);
    execFileSync("sox", [...chosen.map((p) => p.wav), wav]);
    const format = FORMATS[f % FORMATS.length];
    const out = path.join(dir, `clip${f}.${format.ext}`);
    if (format.ext !== "wav") {
      execFileSync("ffmpeg", [
        "-nostdin",
        "-loglevel",
        "error",
        ...(format.input ?? []),
        "-i",
        wav,
        ...format.args,
        out,
      ]);
    }
    files.push({
      name: `burst-${f}.${format.ext}`,
      path: out,
      type: format.type,
      seconds,
      lines: chosen.map((p) => p.line),
    });
  }
  const audioSeconds = files.reduce((s, f) => s + f.seconds, 0);
  console.log(
    `${fileCount} files (${FORMATS.map((f) => f.ext).join("/")}), ${audioSeconds.toFixed(0)} s of speech in all (~${secondsEach} s each)`,
  );

  // 2. the product and a user
  const finished = new Map(); // taskId → { waitMs, runMs } from the worker's log
  server = await startYuelu({
    name: "burst",
    port: 8094,
    onLogLine: (line) => {
      if (line.msg === "transcription done") finished.set(line.fileId, line);
    },
  });
  const { api } = await signIn(server.base, "13900000094");

  // 3. all uploads at once, then one dictation_batch with every file
  const t0 = performance.now();
  const uploaded = await Promise.all(
    files.map(async (f) => {
      const form = new FormData();
      form.append("file", new Blob([readFileSync(f.path)], { type: f.type }), f.name);
      return { ...f, fileId: (await api("POST", "/api/v1/audio/upload", form)).fileId };
    }),
  );
  const t1 = performance.now();
  const queued = await api("POST", "/api/v2/dictation/audio/dictation_batch", {
    fileIds: uploaded.map((u) => u.fileId),
    dictationParam: { source: 0, answerVersion: 3, language: "en", speakerCount: 0 },
  });
  const refused = queued.tasks.filter((t) => t.code !== 1);
  if (refused.length) throw new Error(`dictation_batch refused ${JSON.stringify(refused)}`);
  const tQueued = performance.now();

  // 4. poll every file's progress (as the list page does) until none is waiting or running
  const doneAt = new Map();
  let lastCount = -1;
  const ids = uploaded.map((u) => u.fileId).join(",");
  const final = await waitFor(
    "every transcription",
    async () => {
      const progress = await api("GET", `/api/v1/dictation/progress/get_progress?fileIds=${ids}`);
      for (const p of progress)
        if ((p.fileStatus === 2 || p.fileStatus === -1) && !doneAt.has(p.fileId))
          doneAt.set(p.fileId, performance.now());
      if (doneAt.size !== lastCount) process.stdout.write(` ${doneAt.size}/${fileCount}`);
      lastCount = doneAt.size;
      return doneAt.size === fileCount ? progress : undefined;
    },
    60 * 60_000,
  );
  const t2 = performance.now();
  console.log("\n");

  // 5. every transcript holds its own words (the keyword of each line it was made of)
  let ok = 0;
  const problems = [];
  for (const u of uploaded) {
    const p = final.find((x) => x.fileId === u.fileId);
    if (p.fileStatus !== 2) {
      problems.push(`${u.name}: status ${p.fileStatus} ${p.errorCode ?? ""} ${p.errorMsg ?? ""}`);
      continue;
    }
    const text = JSON.parse((await api("GET", `/api/v2/audio/text/get_text?fileId=${u.fileId}`)).asrResult)
      .map((s) => s.text)
      .join(" ")
      .toLowerCase();
    const expected = [...new Set(u.lines)].map((i) => LINES[i][1]);
    const missing = expected.filter((w) => !text.includes(w));
    if (missing.length) problems.push(`${u.name}: transcript lacks ${missing.join(", ")}`);
    else ok++;
  }

  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const order = [...doneAt.values()].sort((a, b) => a - b);
  console.log(server.setup);
  console.log(`upload of ${fileCount} files at once       ${s(t1 - t0)}`);
  console.log(`dictation_batch (${fileCount} tasks)        ${s(tQueued - t1)}`);
  console.log(`first transcript done            ${s(order[0] - tQueued)} after queueing`);
  console.log(`last transcript done             ${s(order[order.length - 1] - tQueued)} after queueing`);
  console.log(
    `throughput                       ${(audioSeconds / ((t2 - tQueued) / 1000)).toFixed(1)} s of audio per second`,
  );
  const runs = [...finished.values()].map((l) => l.wallSeconds);
  if (runs.length) {
    console.log(
      `worker time per file             ${Math.min(...runs).toFixed(1)}–${Math.max(...runs).toFixed(1)} s (mean ${(runs.reduce((a, b) => a + b, 0) / runs.length).toFixed(1)} s)`,
    );
  }
  console.log(
    `finished with a correct transcript: ${ok}/${fileCount}${problems.length ? `\n  ${problems.join("\n  ")}` : ""}`,
  );
  process.exitCode = ok === fileCount ? 0 : 1;
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
