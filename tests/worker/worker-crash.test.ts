import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Segment } from "@yuelu/contracts";
import { FileStatus, TRANSCRIBE_JOB, transcriptionJobId } from "@yuelu/contracts";
import { createQueueBackend, type QueueBackend, QueueName } from "@yuelu/runtime";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { concatenate, synthesise } from "../helpers/speech.ts";
import { createChargedTask, waitFor } from "../helpers/tasks.ts";

const REDIS_URL = process.env.REDIS_URL;
const root = path.resolve(import.meta.dirname, "../..");
const prefix = `yuelu-crash-${randomBytes(4).toString("hex")}`;

let t: TestApp;
let dir: string;
let queues: QueueBackend;
const children: ChildProcess[] = [];

/** Starts tests/helpers/worker-process.ts and waits for its "ready". */
async function startWorkerProcess(): Promise<ChildProcess> {
  // One process (node with tsx's loader), so SIGKILL hits the worker itself and not a wrapper.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: t.databaseUrl,
    QUEUE_PREFIX: prefix,
    FILES_ROOT: path.join(t.config.dataDir, "files"),
    DATA_DIR: t.config.dataDir,
  };
  if (!REDIS_URL) delete env.REDIS_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/worker-process.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  const collect = (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  child.on("exit", (code, signal) => {
    if (signal !== "SIGKILL" && signal !== "SIGTERM" && code !== 0)
      console.error(`worker process exited ${code}: ${out}`);
  });
  await waitFor(
    "the worker process to be ready",
    async () => {
      if (child.exitCode !== null) throw new Error(`worker process exited (${child.exitCode}): ${out}`);
      return out.includes("ready") || undefined;
    },
    60_000,
  );
  return child;
}

// CI sets REDIS_URL: the Redis queue. Without it the same test runs on BullMQ's PostgreSQL backend.
describe(`a worker killed mid-job (kill -9) on the ${REDIS_URL ? "Redis" : "PostgreSQL"} queue`, () => {
  beforeAll(async () => {
    t = await createTestApp();
    queues = createQueueBackend({ redisUrl: REDIS_URL, databaseUrl: t.databaseUrl, prefix });
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-crash-"));
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    await queues?.close();
    if (REDIS_URL) {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    }
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is taken over by another worker and the task finishes", { timeout: 180_000 }, async () => {
    // ~40 s of English speech: long enough to kill the first worker while it recognises
    const lines = [
      "The weather was bright and clear this morning.",
      "We walked along the river and talked about our plans for the summer.",
      "My sister wants to visit the mountains, but I would rather stay near the sea.",
      "In the afternoon we will meet our friends at the library.",
    ];
    const parts: string[] = [];
    for (let i = 0; i < 12; i++) {
      parts.push(await synthesise(lines[i % lines.length]!, path.join(dir, `p${i}.wav`), "espeak-male", 0.6));
    }
    const audio = await concatenate(parts, path.join(dir, "long.wav"));
    const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    await queues
      .queue(QueueName.Transcription)
      .add(
        TRANSCRIBE_JOB,
        { taskId: task.taskId },
        { jobId: transcriptionJobId(task.taskId), attempts: 3, backoff: { type: "exponential", delay: 1000 } },
      );

    const first = await startWorkerProcess();
    const midway = await waitFor(
      "the first worker to be recognising",
      async () => {
        const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
        return row.status === FileStatus.Transcribing && row.progress >= 12 && row.progress < 80 ? row : undefined;
      },
      90_000,
    );
    first.kill("SIGKILL");
    await once(first, "exit");
    expect(first.signalCode).toBe("SIGKILL");
    // Nobody works on it now: it stays "transcribing" with the progress the dead worker left.
    const orphan = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(orphan.status).toBe(FileStatus.Transcribing);
    expect(orphan.progress).toBeGreaterThanOrEqual(midway.progress);

    const second = await startWorkerProcess();
    const done = await waitFor(
      "the second worker to finish the task",
      async () => {
        const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
        if (row.status === FileStatus.Failed) throw new Error(`task failed: ${row.errorMessage}`);
        return row.status === FileStatus.Complete ? row : undefined;
      },
      120_000,
    );
    expect(done).toMatchObject({ progress: 100, attempts: 2, errorCode: null });
    expect(done.refundedAt).toBeNull();
    const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } });
    expect(record).toMatchObject({ fileStatus: FileStatus.Complete, progress: 100 });
    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
    const segments = transcript.asrResult as unknown as Segment[];
    expect(segments.length).toBeGreaterThanOrEqual(8);
    expect(
      segments
        .map((s) => s.text)
        .join(" ")
        .toLowerCase(),
    ).toContain("library");
    const job = await queues.queue(QueueName.Transcription).getJob(transcriptionJobId(task.taskId));
    expect(await job?.getState()).toBe("completed");
    second.kill("SIGTERM");
    await once(second, "exit");
  });
});
