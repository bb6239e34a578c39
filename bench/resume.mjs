// `node bench/resume.mjs`: a transcription cut by kill -9 at ~50 % and resumed (issue 32).
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres REDIS_URL=redis://127.0.0.1:6379 node bench/resume.mjs
//
// Runs tests/worker/transcribe-resume.test.ts (real worker processes, the Moonshine engine, ~2 minutes of
// synthesised English speech, checkpoints every 15 s of recording): first the recording uncut, then the same
// recording with the worker killed once its checkpoint covers ≥ 40 % of it, and a new worker that finishes
// it. Prints what the test measured: the uncut run's recognition time, the resumed attempt's, and how much
// speech the resumed attempt recognised again.
import { spawnSync } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
if (!process.env.DATABASE_URL) {
  console.error("DATABASE_URL is required (a PostgreSQL server; REDIS_URL too for the Redis queue)");
  process.exit(2);
}
const run = spawnSync(
  "npx",
  [
    "vitest",
    "run",
    "--config",
    "tests/vitest.config.ts",
    "--project",
    "api",
    "tests/worker/transcribe-resume.test.ts",
    "-t",
    "resumes from its checkpoint",
  ],
  { cwd: root, encoding: "utf8", env: process.env, maxBuffer: 64 * 1024 * 1024 },
);
// (vitest may put colour codes in front of the test's line: take it from its opening brace)
const output = `${run.stdout}\n${run.stderr}`;
const at = output.indexOf('{"resumeFigures"');
const line = at >= 0 ? output.slice(at).split("\n")[0] : undefined;
if (run.status !== 0 || !line) {
  console.error(run.stdout.slice(-6000), run.stderr.slice(-4000));
  process.exit(run.status || 1);
}
const f = JSON.parse(line).resumeFigures;
const pct = (a, b) => `${((100 * a) / b).toFixed(1)} %`;
console.log(`recording ${f.recordingSeconds.toFixed(1)} s, speech ${f.speechSeconds.toFixed(1)} s`);
console.log(
  `uncut run: recognition ${(f.uncutAsrMs / 1000).toFixed(1)} s, whole job ${f.uncutWallSeconds.toFixed(1)} s`,
);
console.log(
  `resumed attempt: recognition ${(f.resumedAsrMs / 1000).toFixed(1)} s, whole job ${f.resumedWallSeconds.toFixed(1)} s`,
);
console.log(
  `speech taken from the checkpoint: ${f.takenFromCheckpointSeconds.toFixed(1)} s (${pct(f.takenFromCheckpointSeconds, f.speechSeconds)}); ` +
    `recognised after the restart: ${f.recognisedAgainSeconds.toFixed(1)} s (${pct(f.recognisedAgainSeconds, f.speechSeconds)}: the part after the checkpoint)`,
);
// What the killed attempt had recognised, from its progress bar (recognition spans 10–88 %), less what its
// checkpoint kept: the speech recognised twice.
const before = Math.max(0, ((f.progressAtKill - 10) / 78) * f.speechSeconds);
const redone = Math.max(0, before - f.takenFromCheckpointSeconds);
console.log(
  `killed at progress ${f.progressAtKill} % (≈ ${before.toFixed(1)} s of speech recognised): recognised twice ≈ ${redone.toFixed(1)} s (${pct(redone, f.speechSeconds)} of the speech)`,
);
