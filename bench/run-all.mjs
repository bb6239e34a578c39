// `npm run bench`: runs every benchmark script in this folder, one after the other.
import { execFileSync } from "node:child_process";
import path from "node:path";

const scripts = [
  "footprint.mjs",
  "user-info.mjs",
  "web-bundle.mjs",
  "upload-memory.mjs",
  "tus-upload.mjs",
  "asr-rtf.mjs",
  "transcribe-e2e.mjs",
  "responsiveness.mjs",
  "queue-burst.mjs",
  "tts-rtf.mjs",
  "payments.mjs",
  "detail-render.mjs",
  "screen-times.mjs",
  "robustness.mjs",
  "voice.mjs",
  "word-timing.mjs",
];
// The several-node bench needs a PostgreSQL and a Redis to share.
if (process.env.DATABASE_URL && process.env.REDIS_URL) scripts.push("cluster.mjs");
// The resume bench runs worker processes on a PostgreSQL server.
if (process.env.DATABASE_URL) scripts.push("resume.mjs");
// web-bundle reads the built app.
execFileSync("npm", ["run", "build", "--silent"], { stdio: "inherit" });
for (const script of scripts) {
  console.log(`\n=== bench/${script} ===`);
  execFileSync(process.execPath, [path.join(import.meta.dirname, script), ...process.argv.slice(2)], {
    stdio: "inherit",
  });
}
