import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The README's run command on a machine with no PostgreSQL and no Redis: `npm start` must come up
 * on embedded PGlite, migrate and seed itself, run its workers, let a user sign in with the console
 * SMS code, and stop cleanly on SIGTERM. Runs the real entry point in a child process. Its worker
 * child sleeps when idle (issue 44; WORKER_SLEEP_SECONDS, short here) and the next job wakes it.
 */
const root = path.resolve(import.meta.dirname, "../..");
const port = 18_000 + (process.pid % 1000);
const base = `http://127.0.0.1:${port}`;
let child: ChildProcess;
let dataDir: string;
let output = "";
let workerPid = 0;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field below
type Json = any;

async function waitForReady(timeoutMs = 90_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${output.slice(-3000)}`);
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`not ready after ${timeoutMs} ms:\n${output.slice(-3000)}`);
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "yuelu-embedded-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    WORKER_SLEEP_SECONDS: "3",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  delete env.NODE_ENV;
  child = spawn(process.execPath, ["scripts/start.mjs"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  await waitForReady();
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

describe("npm start without PostgreSQL or Redis", () => {
  it("serves the API on embedded PGlite with queues on PostgreSQL", async () => {
    expect(output).toContain("embedded PostgreSQL (PGlite)");
    expect(output).toMatch(/queues: postgres, events: postgres, workers: a child process/);
    const res: Json = await (await fetch(`${base}/voice_yuelu/api/v1/info_collect`)).json();
    expect(res.status_code).toBe(1);
    expect(res.data.identityList.length).toBeGreaterThan(0);
  });

  it("serves the login page and signs a user in with the console SMS code", async () => {
    const page = await fetch(`${base}/account/login`);
    expect(page.status).toBe(200);
    const phone = "13700000001";
    const sent: Json = await (
      await fetch(`${base}/account/api/sms/send`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ phone }),
      })
    ).json();
    expect(sent.data.devCode).toMatch(/^\d{6}$/);
    const login = await fetch(`${base}/account/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ phone, code: sent.data.devCode }),
    });
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const info = await (await fetch(`${base}/voice_yuelu/api/v1/user/info`, { headers: { cookie } })).json();
    expect(info).toMatchObject({ status_code: 1, data: { phoneNumber: "137****0001" } });
  });

  it("runs the housekeeping job through its worker, a child process at lower CPU priority", async () => {
    const start = Date.now();
    while (!output.includes("housekeeping done") && Date.now() - start < 20_000) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(output).toContain("housekeeping done");
    const started = JSON.parse(output.split("\n").find((l) => l.includes('"worker started"')) ?? "{}");
    expect(started.pid).not.toBe(child.pid);
    expect(started.nice).toBe(10);
    workerPid = started.pid;
  });

  it("puts its worker to sleep when idle, still listed, and wakes it for the next job", async () => {
    const waitFor = async (text: string, from: number, timeoutMs = 30_000) => {
      const start = Date.now();
      while (!output.slice(from).includes(text) && Date.now() - start < timeoutMs) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(output.slice(from)).toContain(text);
    };
    await waitFor("worker process asleep", 0);
    expect(alive(workerPid)).toBe(false);
    // its heartbeat is kept: the API still says what it can transcribe and speak
    const ready: Json = await (await fetch(`${base}/readyz`)).json();
    expect(ready.workers.live).toBeGreaterThan(0);
    // a job queued through the API wakes it, and it does the job
    const from = output.length;
    const phone = "13700000002";
    const sent: Json = await (
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
    const started: Json = await (
      await fetch(`${base}/voice_yuelu/tts/start_tts`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify({ text: "Hello there.", promptId: 1, speed: 1, pitch: 0, volume: 1, source: 0 }),
      })
    ).json();
    expect(started.status_code, started.status_msg).toBe(1);
    await waitFor("waking the worker process", from);
    let status = 0;
    for (let i = 0; i < 120 && status !== 2 && status !== -1; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const progress: Json = await (
        await fetch(`${base}/voice_yuelu/tts/get_progress?taskIds=${started.data.taskId}`, { headers: { cookie } })
      ).json();
      status = progress.data?.[0]?.status ?? 0;
    }
    expect(status).toBe(2);
  }, 60_000);

  it("stops cleanly on SIGTERM, its worker process with it", async () => {
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    // the worker running now (woken by the job above)
    const latest = JSON.parse(
      output
        .split("\n")
        .filter((l) => l.includes('"worker started"'))
        .pop() ?? "{}",
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(alive(workerPid)).toBe(false);
    expect(latest.pid).toBeGreaterThan(0);
    expect(alive(latest.pid)).toBe(false);
  }, 30_000);
});
