import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus, type Segment, TRANSCRIBE_JOB, transcriptionJobId } from "@yuelu/contracts";
import { failStuckTranscriptions, failTask } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import type { AsrEngine, AsrResult, AudioInput, TranscribeOptions } from "../../apps/worker/src/engines/asr/types.ts";
import { WhisperEngine } from "../../apps/worker/src/engines/asr/whisper.ts";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { startTranscriptionWorker } from "../../apps/worker/src/workers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { concatenate, festivalAvailable, synthesise } from "../helpers/speech.ts";
import { balances, createChargedTask, waitFor } from "../helpers/tasks.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/** Test double: an ASR engine that always fails (named as a fake), counting its calls. */
class FakeFailingEngine implements AsrEngine {
  readonly name = "fake-failing";
  calls = 0;
  async transcribe(_audio: AudioInput, _options: TranscribeOptions): Promise<AsrResult> {
    this.calls++;
    throw new Error("boom: the fake engine always fails");
  }
}

const LINES = [
  "Good morning, thank you for joining the meeting today.",
  "Thanks for having me, I am glad to be here.",
  "Let us start with the budget for the next quarter.",
  "I think we should spend more on research and less on travel.",
];

let t: TestApp;
let dir: string;
let conversation: string;
const moonshine = new MoonshineEngine();

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-job-"));
  // Two voices taking turns: festival's female voice (or espeak-ng's) and espeak-ng's male voice.
  const parts: string[] = [];
  for (const [i, line] of LINES.entries()) {
    const voice = i % 2 ? "espeak-male" : festivalAvailable() ? "festival-slt" : "espeak-female";
    parts.push(await synthesise(line, path.join(dir, `line-${i}.wav`), voice, 0.8));
  }
  conversation = await concatenate(parts, path.join(dir, "conversation.wav"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("transcribe job (real database, moonshine engine)", () => {
  it("writes the transcript, speakers and status 2, mirroring progress on task and record", {
    timeout: 120_000,
  }, async () => {
    const task = await createChargedTask(t.db, t.files, {
      audioFile: conversation,
      language: "en",
      hotWords: ["budget"],
    });
    const samples: { ts: number; tp: number; rs: number; rp: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const [row, rec] = await Promise.all([
          t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } }),
          t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } }),
        ]);
        samples.push({ ts: row.status, tp: row.progress, rs: rec.fileStatus, rp: rec.progress });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const outcome = await transcribe(task.taskId, {
      domain: t.domain,
      files: t.files,
      asr: () => moonshine,
      progressEveryMs: 0,
    });
    polling = false;
    await poller;

    expect(outcome).toMatchObject({ status: "done", language: "en", speakers: 2 });
    const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row).toMatchObject({ status: FileStatus.Complete, progress: 100, attempts: 1, errorCode: null });
    expect(row.finishedAt).not.toBeNull();
    expect(row.refundedAt).toBeNull();
    const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } });
    expect(record).toMatchObject({ fileStatus: FileStatus.Complete, progress: 100 });

    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
    expect(transcript.language).toBe("en");
    // the front end measured the (clean) recording and left it as it was
    expect(transcript.audioReport).toMatchObject({
      denoised: false,
      facts: { snrDb: expect.any(Number), bandwidthHz: expect.any(Number) },
    });
    expect((transcript.audioReport as { facts: { snrDb: number } }).facts.snrDb).toBeGreaterThan(20);
    const segments = transcript.asrResult as unknown as Segment[];
    expect(segments).toHaveLength(LINES.length);
    expect(segments.map((s) => s.spkName)).toEqual(["Speaker 1", "Speaker 2", "Speaker 1", "Speaker 2"]);
    for (const [i, s] of segments.entries()) {
      expect(Number.isInteger(s.startTime) && Number.isInteger(s.endTime)).toBe(true);
      expect(s.endTime).toBeGreaterThan(s.startTime);
      if (i > 0) expect(s.startTime).toBeGreaterThanOrEqual(segments[i - 1]!.endTime);
      expect(s.text).toMatch(/[.!?]$/);
    }
    const { wer } = wordErrorRate(LINES.join(" "), segments.map((s) => s.text).join(" "));
    expect(wer).toBeLessThanOrEqual(0.15);

    // progress was mirrored while transcribing: both rows in status 1 with the same 0 < p < 100
    const during = samples.filter((s) => s.ts === FileStatus.Transcribing && s.tp > 0 && s.tp < 100);
    expect(during.length).toBeGreaterThan(0);
    expect(during.some((s) => s.rs === FileStatus.Transcribing && s.rp === s.tp)).toBe(true);
    const seen = samples.map((s) => s.tp);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // still charged: a completed transcription is not refunded, even by a late failure path
    expect(await failTask(t.domain, task.taskId, { code: 40001, reason: "error", detail: "late" })).toBe(false);
    expect((await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } })).status).toBe(
      FileStatus.Complete,
    );
    expect(await balances(t.db, task)).toEqual({
      cardRemaining: task.cardSeconds - task.seconds,
      daySeconds: task.seconds,
    });
  });

  it("skips a task that is complete, failed or gone", async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });
    await t.db.transcriptionTask.update({ where: { id: task.taskId }, data: { status: FileStatus.Complete } });
    const ctx = { domain: t.domain, files: t.files, asr: () => new FakeFailingEngine() };
    expect(await transcribe(task.taskId, ctx)).toMatchObject({ status: "skipped" });
    await t.db.transcriptionTask.update({ where: { id: task.taskId }, data: { status: FileStatus.Failed } });
    expect(await transcribe(task.taskId, ctx)).toMatchObject({ status: "skipped" });
    expect(await transcribe(999_999_999, ctx)).toMatchObject({ status: "skipped" });
  });

  it("labels Chinese transcripts 说话人N", { timeout: 60_000 }, async () => {
    /** Test double: an engine that hears fixed Chinese text per region (named as a fake). */
    class FakeChineseEngine implements AsrEngine {
      readonly name = "fake-chinese";
      async transcribe(_audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
        return {
          language: "zh",
          segments: (options.regions ?? []).map((r) => ({ ...r, text: "今天天气很好 我们去公园" })),
        };
      }
    }
    const task = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "zh", speakerCount: 2 });
    await transcribe(task.taskId, { domain: t.domain, files: t.files, asr: () => new FakeChineseEngine() });
    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
    const segments = transcript.asrResult as unknown as Segment[];
    expect(transcript.language).toBe("zh");
    expect(segments.map((s) => s.spkName)).toEqual(["说话人1", "说话人2", "说话人1", "说话人2"]);
    expect(segments[0]?.text).toBe("今天天气很好，我们去公园。");
  });
});

describe("transcription queue worker: retries, final failure and refund", () => {
  it("retries a failing engine, then fails the task with 40001 and refunds it", { timeout: 60_000 }, async () => {
    const engine = new FakeFailingEngine();
    const worker = startTranscriptionWorker(
      {
        db: t.db,
        config: t.config,
        queues: t.queues,
        files: t.files,
        events: t.events,
        log: silent,
        asr: () => engine,
      },
      { lockDuration: 5000, stalledInterval: 2000 },
    );
    try {
      const task = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });
      expect(await balances(t.db, task)).toEqual({
        cardRemaining: task.cardSeconds - task.seconds,
        daySeconds: task.seconds,
      });
      await t.queues
        .queue(QueueName.Transcription)
        .add(
          TRANSCRIBE_JOB,
          { taskId: task.taskId },
          { jobId: transcriptionJobId(task.taskId), attempts: 3, backoff: { type: "fixed", delay: 100 } },
        );
      const row = await waitFor("the task to fail and be refunded", async () => {
        const r = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
        return r.status === FileStatus.Failed ? r : undefined;
      });
      expect(engine.calls).toBe(3);
      expect(row).toMatchObject({ errorCode: 40001, errorReason: "error", attempts: 3, progress: 0 });
      expect(row.errorMessage).toMatch(/boom/);
      // refunded in the very transaction that failed it
      expect(row.refundedAt).toEqual(row.finishedAt);
      expect(row.refundedAt).not.toBeNull();
      const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } });
      expect(record).toMatchObject({ fileStatus: FileStatus.Failed, progress: 0 });
      expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
      expect(await t.db.transcript.findUnique({ where: { fileId: task.fileId } })).toBeNull();
    } finally {
      await worker.close();
    }
  });

  it("fails at once with 70001 when the engine is not installed (no retry), and refunds", {
    timeout: 60_000,
  }, async () => {
    const missing = path.join(dir, "no-model.bin");
    const whisper = new WhisperEngine({ cli: path.join(dir, "no-whisper-cli"), model: missing });
    const worker = startTranscriptionWorker(
      {
        db: t.db,
        config: t.config,
        queues: t.queues,
        files: t.files,
        events: t.events,
        log: silent,
        asr: () => whisper,
      },
      { lockDuration: 5000, stalledInterval: 2000 },
    );
    try {
      const task = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "zh" });
      const job = await t.queues
        .queue(QueueName.Transcription)
        .add(
          TRANSCRIBE_JOB,
          { taskId: task.taskId },
          { jobId: transcriptionJobId(task.taskId), attempts: 3, backoff: { type: "fixed", delay: 100 } },
        );
      const row = await waitFor("the task to fail and be refunded", async () => {
        const r = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
        return r.status === FileStatus.Failed ? r : undefined;
      });
      expect(row).toMatchObject({ errorCode: 70001, errorReason: "engine-unavailable/binary-missing", attempts: 1 });
      expect(row.refundedAt).not.toBeNull();
      // the operator's details (paths included) stay in the row and the log; users get the translated reason
      expect(row.errorMessage).toMatch(/whisper\.cpp is not built/);
      expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
      await waitFor("the job to be failed", async () => (await job.getState()) === "failed");
      const finished = await t.queues.queue(QueueName.Transcription).getJob(job.id!);
      expect(finished?.attemptsMade).toBe(1);
    } finally {
      await worker.close();
    }
  });
});

describe("stuck transcriptions (housekeeping)", () => {
  it("fails and refunds tasks stuck in transcribing or whose job is gone; leaves fresh ones", async () => {
    const stuck = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });
    await t.db.transcriptionTask.update({
      where: { id: stuck.taskId },
      data: { status: FileStatus.Transcribing, startedAt: new Date(Date.now() - 2 * 3600_000) },
    });
    await t.db.audioRecord.update({ where: { fileId: stuck.fileId }, data: { fileStatus: FileStatus.Transcribing } });
    const lost = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });
    await t.db.transcriptionTask.update({
      where: { id: lost.taskId },
      data: { createdAt: new Date(Date.now() - 20 * 60_000) },
    });
    const fresh = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });

    const queue = t.queues.queue(QueueName.Transcription);
    const failed = await failStuckTranscriptions(t.domain, { queue });
    expect(failed).toBeGreaterThanOrEqual(2);
    for (const task of [stuck, lost]) {
      const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
      expect(row).toMatchObject({ status: FileStatus.Failed, errorCode: 40001 });
      expect(row.refundedAt).not.toBeNull();
      expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
      const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } });
      expect(record.fileStatus).toBe(FileStatus.Failed);
    }
    expect((await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: fresh.taskId } })).status).toBe(
      FileStatus.InQueue,
    );
    // housekeeping runs the same check; nothing more to do now
    const again = await runHousekeeping(t.domain, { queues: t.queues });
    expect(again.failedStuckTasks).toBe(0);
  });

  it("fails and refunds in one move: a task that already left the queue is neither failed nor refunded again", async () => {
    const task = await createChargedTask(t.db, t.files, { audioFile: conversation, language: "en" });
    const failure = { code: 40001, reason: "error", detail: "test" };
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => failTask(t.domain, task.taskId, failure)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row.status).toBe(FileStatus.Failed);
    expect(row.refundedAt).toEqual(row.finishedAt);
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
  });
});

const silent = { info: () => {}, warn: () => {}, error: () => {} };
