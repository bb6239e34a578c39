import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Segment } from "@yuelu/contracts";
import { FileStatus, TRANSCRIBE_JOB, transcriptionJobId } from "@yuelu/contracts";
import { createQueueBackend, type QueueBackend, QueueName, queuePrefix } from "@yuelu/runtime";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TranscriptionCheckpoint } from "../../apps/worker/src/jobs/checkpoint.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { concatenate, durationOf, synthesise } from "../helpers/speech.ts";
import { createChargedTask, waitFor } from "../helpers/tasks.ts";

/**
 * Issue 32: a transcription cut by SIGKILL at ~50 % resumes from its checkpoint in the next worker,
 * recognising at most the unfinished part plus one batch, and ends with the transcript of an uncut run.
 * Real processes (tests/helpers/worker-process.ts), the real Moonshine engine, real synthesised speech.
 */

const REDIS_URL = process.env.REDIS_URL;
const root = path.resolve(import.meta.dirname, "../..");
const prefix = `yuelu-resume-${randomBytes(4).toString("hex")}`;
/** recording per checkpoint: small, so ~2 minutes of speech gives a batch every few seconds of work */
const BATCH_MS = 15_000;

let t: TestApp;
let dir: string;
let queues: QueueBackend;
const children: ChildProcess[] = [];
/** the recording and the uncut run's transcript, for the grace-cut case */
let audio: string;
let reference: string;

interface Worker {
  child: ChildProcess;
  /** the JSON log lines it printed so far */
  logs(): { msg?: string; obj?: Record<string, unknown> }[];
}

async function startWorkerProcess(): Promise<Worker> {
  // One process (node with tsx's loader), so SIGKILL hits the worker itself and not a wrapper.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: t.databaseUrl,
    QUEUE_PREFIX: prefix,
    FILES_ROOT: path.join(t.config.dataDir, "files"),
    DATA_DIR: t.config.dataDir,
    TRANSCRIBE_CHECKPOINT_SECONDS: String(BATCH_MS / 1000),
  };
  if (!REDIS_URL) delete env.REDIS_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/worker-process.ts"], {
    cwd: root,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const logs = () =>
    out
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { msg?: string; obj?: Record<string, unknown> });
  await waitFor(
    "the worker process to be ready",
    async () => {
      if (child.exitCode !== null) throw new Error(`worker process exited (${child.exitCode}): ${out.slice(-4000)}`);
      return out.includes("ready") || undefined;
    },
    60_000,
  );
  return { child, logs };
}

async function enqueue(taskId: number) {
  await queues
    .queue(QueueName.Transcription)
    .add(
      TRANSCRIBE_JOB,
      { taskId },
      { jobId: transcriptionJobId(taskId), attempts: 3, backoff: { type: "exponential", delay: 1000 } },
    );
}

async function finished(taskId: number) {
  return waitFor(
    `task ${taskId} to finish`,
    async () => {
      const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } });
      if (row.status === FileStatus.Failed) throw new Error(`task failed: ${row.errorMessage}`);
      return row.status === FileStatus.Complete ? row : undefined;
    },
    240_000,
  );
}

async function transcriptText(fileId: number) {
  const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId } });
  return (transcript.asrResult as unknown as Segment[]).map((s) => s.text).join(" ");
}

type Recognised = { regions: number; ms: number; resumedRegions: number; resumedMs: number };
const doneLog = (w: Worker, taskId: number) =>
  w.logs().find((l) => l.msg === "transcription done" && l.obj?.taskId === taskId)?.obj as
    | { recognised: Recognised; asrMs: number; wallSeconds: number; seconds: number }
    | undefined;

describe(`a transcription cut by kill -9 at ~50 % (${REDIS_URL ? "Redis" : "PostgreSQL"} queue)`, () => {
  beforeAll(async () => {
    t = await createTestApp();
    queues = createQueueBackend({ redisUrl: REDIS_URL, databaseUrl: t.databaseUrl, prefix });
    dir = await mkdtemp(path.join(tmpdir(), "yuelu-resume-"));
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

  it("resumes from its checkpoint, re-doing at most one batch, with the uncut run's transcript", {
    timeout: 600_000,
  }, async () => {
    // ~2 minutes of English speech with pauses: many speech regions, several batches of 15 s
    const lines = [
      "The weather was bright and clear this morning.",
      "We walked along the river and talked about our plans for the summer.",
      "My sister wants to visit the mountains, but I would rather stay near the sea.",
      "In the afternoon we will meet our friends at the library.",
      "After dinner we read a story about a sailor who crossed the ocean alone.",
      "The next day the train left the station early and arrived before noon.",
    ];
    const parts: string[] = [];
    for (let i = 0; i < 30; i++) {
      parts.push(await synthesise(lines[i % lines.length]!, path.join(dir, `p${i}.wav`), "espeak-male", 0.8));
    }
    audio = await concatenate(parts, path.join(dir, "long.wav"));
    const seconds = await durationOf(audio);
    expect(seconds).toBeGreaterThan(100);

    // 1. the uncut run: the reference transcript and time
    const first = await startWorkerProcess();
    const uncut = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    await enqueue(uncut.taskId);
    await finished(uncut.taskId);
    const uncutLog = await waitFor("the uncut run's log", async () => doneLog(first, uncut.taskId));
    expect(uncutLog.recognised.resumedRegions).toBe(0);
    const speechMs = uncutLog.recognised.ms;
    expect(speechMs).toBeGreaterThan(4 * BATCH_MS);

    // 2. the same recording again, cut by kill -9 once about half the speech is recognised
    const cut = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
    await enqueue(cut.taskId);
    const atKill = await waitFor(
      "the worker to have checkpointed about half the speech",
      async () => {
        const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: cut.taskId } });
        const c = row.checkpoint as TranscriptionCheckpoint | null;
        if (row.status !== FileStatus.Transcribing || !c) return undefined;
        // the speech covered by the checkpoint, as a share of the offset in the recording
        return c.offsetMs >= 0.4 * seconds * 1000 ? { row, checkpoint: c } : undefined;
      },
      240_000,
    );
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    expect(atKill.checkpoint.offsetMs).toBeLessThan(0.75 * seconds * 1000);
    expect(atKill.checkpoint.attempt).toBe(1);
    // what the dead worker left: still "transcribing", with its checkpoint (the last batch it finished)
    const orphan = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: cut.taskId } });
    const left = orphan.checkpoint as unknown as TranscriptionCheckpoint;
    expect(orphan.status).toBe(FileStatus.Transcribing);
    expect(left.regionsDone).toBeGreaterThanOrEqual(atKill.checkpoint.regionsDone);

    // 3. a new worker takes the job back and recognises only what the checkpoint does not cover
    const second = await startWorkerProcess();
    const done = await finished(cut.taskId);
    expect(done).toMatchObject({ progress: 100, attempts: 2, errorCode: null, checkpoint: null });
    const resumedLog = await waitFor("the resumed run's log", async () => doneLog(second, cut.taskId));
    const r = resumedLog.recognised;
    expect(r.resumedRegions).toBe(left.regionsDone);
    expect(r.resumedMs + r.ms).toBe(speechMs);
    // at most the unfinished part (from the last checkpoint) plus one batch of speech
    const unfinishedMs = speechMs - r.resumedMs;
    expect(r.ms).toBeLessThanOrEqual(unfinishedMs + BATCH_MS);
    expect(r.ms).toBeLessThan(0.65 * speechMs);
    expect(
      second.logs().some((l) => l.msg === "transcription resumed from its checkpoint" && l.obj?.taskId === cut.taskId),
    ).toBe(true);

    // the same transcript as the uncut run: the same batches, the same text
    reference = await transcriptText(uncut.fileId);
    expect(await transcriptText(cut.fileId)).toBe(reference);
    const text = (await transcriptText(cut.fileId)).toLowerCase();
    expect(text).toContain("library");
    expect(text).toContain("station");

    console.log(
      JSON.stringify({
        resumeFigures: {
          recordingSeconds: seconds,
          speechSeconds: speechMs / 1000,
          uncutAsrMs: uncutLog.asrMs,
          uncutWallSeconds: uncutLog.wallSeconds,
          resumedAsrMs: resumedLog.asrMs,
          resumedWallSeconds: resumedLog.wallSeconds,
          takenFromCheckpointSeconds: r.resumedMs / 1000,
          // the killed attempt's progress when it died: recognition spans 10–88 % of the bar
          progressAtKill: atKill.row.progress,
          recognisedAgainSeconds: r.ms / 1000,
        },
      }),
    );
    second.child.kill("SIGTERM");
    await once(second.child, "exit");
  });

  it("cut at the grace period by a deploy (SIGTERM), it resumes from the checkpoint written before", {
    timeout: 600_000,
  }, async () => {
    expect(reference, "the first case ran").toBeTruthy();
    // The product's worker process (apps/worker/src/main.ts) on the test database: its own queue prefix.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.config.dataDir,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
      ASR_AUTO_FETCH: "false",
      WORKER_GRACE_SECONDS: "2",
      TRANSCRIBE_CHECKPOINT_SECONDS: String(BATCH_MS / 1000),
    };
    if (!REDIS_URL) delete env.REDIS_URL;
    const startProductWorker = async () => {
      const child = spawn(process.execPath, ["--import", "tsx", "apps/worker/src/main.ts"], {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let out = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += d.toString();
      });
      child.stderr?.on("data", (d: Buffer) => {
        out += d.toString();
      });
      await waitFor(
        "the worker to start",
        async () => {
          if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}): ${out.slice(-4000)}`);
          return out.includes('"msg":"worker started"') || undefined;
        },
        120_000,
      );
      return { child, out: () => out };
    };
    const productQueues = createQueueBackend({
      redisUrl: REDIS_URL,
      databaseUrl: t.databaseUrl,
      prefix: await queuePrefix(t.db),
    });
    try {
      const deployed = await startProductWorker();
      const task = await createChargedTask(t.db, t.files, { audioFile: audio, language: "en" });
      await productQueues
        .queue(QueueName.Transcription)
        .add(
          TRANSCRIBE_JOB,
          { taskId: task.taskId },
          { jobId: transcriptionJobId(task.taskId), attempts: 3, backoff: { type: "exponential", delay: 1000 } },
        );
      await waitFor(
        "a checkpoint covering a third of the recording",
        async () => {
          const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
          const c = row.checkpoint as TranscriptionCheckpoint | null;
          return c && c.offsetMs >= 0.33 * (await durationOf(audio)) * 1000 ? c : undefined;
        },
        240_000,
      );
      // a deploy: SIGTERM; the job cannot finish in the 2 s grace and is cut
      const stoppedAt = Date.now();
      deployed.child.kill("SIGTERM");
      await once(deployed.child, "exit");
      const stopSeconds = (Date.now() - stoppedAt) / 1000;
      expect(stopSeconds).toBeLessThan(15);
      const cutRow = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
      expect(cutRow.status, "the job was cut, not finished").toBe(FileStatus.Transcribing);
      const kept = cutRow.checkpoint as unknown as TranscriptionCheckpoint;
      expect(kept.regionsDone).toBeGreaterThan(0);

      // the new version starts; once the cut job's lock lapses it takes it back and resumes
      const next = await startProductWorker();
      const done = await finished(task.taskId);
      expect(done).toMatchObject({ attempts: 2, checkpoint: null, errorCode: null });
      const log = next
        .out()
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as { msg?: string; taskId?: number; recognised?: Recognised })
        .find((l) => l.msg === "transcription done" && l.taskId === task.taskId);
      expect(log?.recognised?.resumedRegions).toBeGreaterThanOrEqual(kept.regionsDone);
      expect(await transcriptText(task.fileId)).toBe(reference);
      console.log(JSON.stringify({ graceCut: { stopSeconds, recognised: log?.recognised } }));
      next.child.kill("SIGTERM");
      await once(next.child, "exit");
    } finally {
      await productQueues.close();
    }
  });
});
