import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A real S3-compatible server (s3rver) on a free port, its data in a temp folder, in a process of its
 * own, as a real one is, so a test can stop and restart it (an outage).
 */
export interface TestS3 {
  /** the FILE_STORE=s3 variables that point a Yuelu process at it */
  env: Record<string, string>;
  endpoint: string;
  bucket: string;
  /** the folder s3rver keeps its objects in (tests count what is left) */
  directory: string;
  /** an outage: the server stops (its objects are kept) … */
  stop(): Promise<void>;
  /** … and comes back on the same address */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startS3(bucket = "yuelu-test"): Promise<TestS3> {
  const directory = await mkdtemp(path.join(tmpdir(), "yuelu-s3rver-"));
  let child = await serve(directory, bucket, 0);
  const port = child.port;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    env: {
      FILE_STORE: "s3",
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: bucket,
      // s3rver's fixed development keys
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
      // several machines share one bucket, and so one session secret (required with FILE_STORE=s3)
      COOKIE_SECRET: "s3-test-secret-s3-test-secret-s3-test-secret-0123",
    },
    async stop() {
      await child.stop();
    },
    async start() {
      child = await serve(directory, bucket, port);
    },
    async close() {
      await child.stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

async function serve(directory: string, bucket: string, port: number) {
  const child = spawn(
    process.execPath,
    [path.join(import.meta.dirname, "s3rver-process.mjs"), directory, bucket, String(port)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const listening = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited ${code}`)));
  });
  return {
    port: listening,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
