// An S3-compatible server for benches (s3rver, in its own process: tests/helpers/s3rver-process.mjs),
// its objects in a temp folder removed by stop(); env holds the FILE_STORE=s3 variables for Yuelu.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export async function startS3rver(bucket = "bench") {
  const directory = mkdtempSync(path.join(tmpdir(), "yuelu-bench-s3-"));
  const script = path.resolve(import.meta.dirname, "../../tests/helpers/s3rver-process.mjs");
  const child = spawn(process.execPath, [script, directory, bucket], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise((resolve) => child.stdout.once("data", (d) => resolve(JSON.parse(String(d)).port)));
  return {
    env: {
      FILE_STORE: "s3",
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      COOKIE_SECRET: "bench-secret-bench-secret-bench-secret-0123456789",
    },
    stop() {
      child.kill("SIGTERM");
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
