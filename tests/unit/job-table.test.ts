import { JOBS } from "@yuelu/contracts";
import { enqueue, type QueueBackend, QueueName } from "@yuelu/runtime";
import { type Job, UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { WORKER_JOB_ROWS, WORKER_JOBS } from "../../apps/worker/src/jobs/table.ts";
import { assertEveryQueueHandled, startTaskWorker } from "../../apps/worker/src/task-worker.ts";

/**
 * The job table (contracts/jobs.ts JOBS + apps/worker/src/jobs/table.ts): queue names, job names, job
 * ids and options are what running installs and clients hold (a job queued before an upgrade must still
 * be found and run), so they are pinned here; and the worker refuses to boot unless every queue has
 * exactly one handler.
 */

/** A queue backend that only records: the workers started and the jobs added. */
function recordingBackend() {
  const added: { queue: string; name: string; data: unknown; opts: unknown }[] = [];
  const workers: { name: string; opts: unknown; processor: (job: Job) => Promise<unknown> }[] = [];
  const backend = {
    queue: (queue: string) => ({
      add: async (name: string, data: unknown, opts: unknown) => {
        added.push({ queue, name, data, opts });
        return { id: (opts as { jobId: string }).jobId };
      },
    }),
    worker: (name: string, processor: (job: Job) => Promise<unknown>, opts: unknown) => {
      const worker = { name, opts, processor, on: () => worker };
      workers.push(worker);
      return worker;
    },
  } as unknown as QueueBackend;
  return { backend, added, workers };
}

const quiet = { error: () => {} };
const anyDomain = {} as never;

describe("the job table keeps what installs and clients hold", () => {
  it("queue names, job names and job ids are those of before the table", () => {
    expect(JOBS.transcription).toMatchObject({ queue: "transcription", name: "transcribe" });
    expect(JOBS.transcription.jobId({ taskId: 7 })).toBe("task-7");
    expect(JOBS.tts).toMatchObject({ queue: "tts", name: "synthesize" });
    expect(JOBS.tts.jobId({ taskId: 7 })).toBe("tts-7");
    expect(JOBS.ttsSample).toMatchObject({ queue: "tts-samples", name: "voice-sample" });
    expect(JOBS.ttsSample.jobId({ promptId: 3 }, "ab12")).toBe("sample-3-ab12");
    expect(JOBS.voice).toMatchObject({ queue: "voice", name: "voice" });
    expect(JOBS.voice.jobId({ kind: "voice", id: 4 }, "voices/9/1f2e-uuid.wav")).toBe("myvoice-4-1f2e-uuid");
    expect(JOBS.voice.jobId({ kind: "work", id: 4 }, "ignored")).toBe("work-4");
    expect(JOBS.note).toMatchObject({ queue: "notes", name: "note" });
    expect(JOBS.note.jobId({ taskId: 7 })).toBe("note-7");
    expect(JOBS.webhook).toMatchObject({ queue: "webhooks", name: "deliver-webhook" });
    expect(JOBS.webhook.jobId({ deliveryId: 5, attempt: 2 })).toBe("webhook-5-2");
    expect(JOBS.clip).toMatchObject({ queue: "clips", name: "cut-clip" });
    expect(JOBS.clip.jobId({ clipId: 9 })).toBe("clip-9");
  });

  it("each kind is added with the options it had", async () => {
    const { backend, added } = recordingBackend();
    await enqueue(backend, JOBS.transcription, { taskId: 1 });
    await enqueue(backend, JOBS.tts, { taskId: 1 });
    await enqueue(backend, JOBS.ttsSample, { promptId: 1 }, { version: "v" });
    await enqueue(backend, JOBS.voice, { kind: "work", id: 1 });
    await enqueue(backend, JOBS.note, { taskId: 1 });
    await enqueue(backend, JOBS.webhook, { deliveryId: 1, attempt: 3 }, { delay: 60_000 });
    const task = (attempts: number, delay: number) => ({
      attempts,
      backoff: { type: "exponential", delay },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
    expect(added).toEqual([
      { queue: "transcription", name: "transcribe", data: { taskId: 1 }, opts: { ...task(3, 5000), jobId: "task-1" } },
      { queue: "tts", name: "synthesize", data: { taskId: 1 }, opts: { ...task(3, 2000), jobId: "tts-1" } },
      {
        queue: "tts-samples",
        name: "voice-sample",
        data: { promptId: 1 },
        opts: { attempts: 1, removeOnComplete: true, removeOnFail: { age: 3600, count: 200 }, jobId: "sample-1-v" },
      },
      { queue: "voice", name: "voice", data: { kind: "work", id: 1 }, opts: { ...task(2, 5000), jobId: "work-1" } },
      { queue: "notes", name: "note", data: { taskId: 1 }, opts: { ...task(3, 5000), jobId: "note-1" } },
      {
        queue: "webhooks",
        name: "deliver-webhook",
        data: { deliveryId: 1, attempt: 3 },
        opts: { attempts: 1, removeOnComplete: true, removeOnFail: true, jobId: "webhook-1-3", delay: 60_000 },
      },
    ]);
  });

  it("every kind has a worker row on a declared queue, and its metric type", () => {
    expect(Object.keys(WORKER_JOBS).sort()).toEqual(Object.keys(JOBS).sort());
    for (const row of WORKER_JOB_ROWS) expect(Object.values(QueueName)).toContain(row.def.queue);
    expect(WORKER_JOB_ROWS.map((row) => row.metric).sort()).toEqual(
      ["clip", "note", "transcription", "tts", "tts-sample", "voice", "webhook"].sort(),
    );
  });
});

describe("the boot guard", () => {
  const everyQueue = Object.values(QueueName).map((name) => ({ name }));

  it("starts when every queue has exactly one handler", () => {
    expect(() => assertEveryQueueHandled(everyQueue)).not.toThrow();
  });

  it("refuses a queue with no handler", () => {
    const noVoice = everyQueue.filter((w) => w.name !== QueueName.Voice);
    expect(() => assertEveryQueueHandled(noVoice)).toThrow(/queue "voice" has 0 handlers/);
  });

  it("refuses a queue with two handlers", () => {
    expect(() => assertEveryQueueHandled([...everyQueue, { name: QueueName.Notes }])).toThrow(
      /queue "notes" has 2 handlers/,
    );
  });

  it("refuses a worker on a queue nothing declares, and two kinds on one queue", () => {
    expect(() => assertEveryQueueHandled([...everyQueue, { name: "ghosts" }])).toThrow(/undeclared queues: ghosts/);
    const rows = [...WORKER_JOB_ROWS, { def: { ...JOBS.note, name: "second-note-kind" } }];
    expect(() => assertEveryQueueHandled(everyQueue, rows)).toThrow(/share the queue "notes"/);
  });

  it("counts the handlers startTaskWorker registers: a row started twice stops the boot", () => {
    const { backend, workers } = recordingBackend();
    const ctx = { queues: backend, log: quiet, domain: anyDomain };
    const noop = async () => undefined;
    for (const row of WORKER_JOB_ROWS) startTaskWorker(ctx, row, noop);
    const housekeeping = { name: QueueName.Housekeeping };
    expect(() => assertEveryQueueHandled([housekeeping, ...workers])).not.toThrow();
    startTaskWorker(ctx, WORKER_JOBS.transcription, noop);
    expect(() => assertEveryQueueHandled([housekeeping, ...workers])).toThrow(/"transcription" has 2 handlers/);
  });
});

describe("startTaskWorker", () => {
  const job = (name: string, data: unknown) => ({ name, data, attemptsMade: 0, opts: {}, timestamp: 0 }) as Job;

  it("never retries a job of another name or a bad payload; hands a good one to the handler", async () => {
    const { backend, workers } = recordingBackend();
    const seen: unknown[] = [];
    startTaskWorker({ queues: backend, log: quiet }, WORKER_JOBS.webhook, async (payload) => seen.push(payload));
    const run = workers[0]!.processor;
    await expect(run(job("other", { deliveryId: 1, attempt: 1 }))).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(run(job("deliver-webhook", { deliveryId: "x" }))).rejects.toThrow("invalid webhook job payload");
    await run(job("deliver-webhook", { deliveryId: 1, attempt: 2 }));
    expect(seen).toEqual([{ deliveryId: 1, attempt: 2 }]);
  });

  it("takes the row's lock defaults under the worker's own settings", () => {
    const { backend, workers } = recordingBackend();
    startTaskWorker({ queues: backend, log: quiet, domain: anyDomain }, WORKER_JOBS.voice, async () => 0, {
      stalledInterval: 500,
    });
    startTaskWorker({ queues: backend, log: quiet }, WORKER_JOBS.webhook, async () => 0, { concurrency: 10 });
    expect(workers[0]!.opts).toEqual({
      concurrency: 1,
      lockDuration: 120_000,
      stalledInterval: 500,
      maxStalledCount: 2,
    });
    // BullMQ's own defaults stay for what the row leaves unset
    expect(workers[1]!.opts).toEqual({ concurrency: 10 });
  });

  it("a one-attempt kind fails with the reason its producer reads back", async () => {
    const { backend, workers } = recordingBackend();
    startTaskWorker({ queues: backend, log: quiet }, WORKER_JOBS.ttsSample, async () => {
      throw new Error("boom");
    });
    await expect(workers[0]!.processor(job("voice-sample", { promptId: 1 }))).rejects.toSatisfy(
      (error) => error instanceof UnrecoverableError && error.message === "error",
    );
  });
});
