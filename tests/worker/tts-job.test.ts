import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus, SYNTHESIZE_JOB, ttsJobId } from "@yuelu/contracts";
import {
  businessDay,
  claimTtsTask,
  failStuckTtsTasks,
  failTtsTask,
  findVoice,
  requestSynthesis,
  type SynthesisRequest,
} from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredTtsEngines } from "../../apps/worker/src/engines/tts/factory.ts";
import {
  type PcmAudio,
  type SynthesisOptions,
  type SynthesisResult,
  type TtsEngine,
  TtsEngineUnavailableError,
} from "../../apps/worker/src/engines/tts/types.ts";
import { analyseVoiceSample, nativeMatch, speakAsFloats } from "../../apps/worker/src/engines/voice/index.ts";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { synthesizeSpeech } from "../../apps/worker/src/jobs/synthesize-speech.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { seedUser } from "../helpers/factories.ts";
import { waitFor } from "../helpers/tasks.ts";
import { audioStats, startTestTtsWorker } from "../helpers/tts.ts";

/** Test double: an engine that always fails (named as a fake), counting its calls. */
class FakeFailingTtsEngine implements TtsEngine {
  readonly name = "espeak-ng" as const;
  readonly languages = ["zh", "en"] as const;
  calls = 0;
  async ready() {}
  async synthesize(): Promise<SynthesisResult> {
    this.calls++;
    throw new Error("boom: the fake engine always fails");
  }
}

/** Test double: an engine that answers a tone per piece after `delayMs`, honouring the abort signal. */
class FakeSlowTtsEngine implements TtsEngine {
  readonly name = "espeak-ng" as const;
  readonly languages = ["zh", "en"] as const;
  constructor(private readonly delayMs: number) {}
  async ready() {}
  async synthesize(texts: readonly string[], options: SynthesisOptions): Promise<SynthesisResult> {
    const pieces: PcmAudio[] = [];
    for (const [i] of texts.entries()) {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, this.delayMs);
        options.signal?.addEventListener("abort", () => {
          clearTimeout(timer);
          reject(options.signal?.reason);
        });
      });
      const samples = new Int16Array(16_000).map((_, k) => Math.round(8000 * Math.sin(k / 10)));
      pieces.push({ sampleRate: 16_000, samples });
      options.onProgress?.(i + 1);
    }
    return { pieces, pitchApplied: options.pitch };
  }
}

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-tts-job-"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const today = () => businessDay(new Date(), t.config.BUSINESS_TZ);
const charsUsed = async (userId: number) =>
  (await t.db.ttsQuotaDay.findUnique({ where: { userId_day: { userId, day: today() } } }))?.charsUsed ?? 0;

/** A user and a queued, charged task as start_tts leaves it (its job is not queued). */
async function queuedTask(text: string, promptId: number, settings: Partial<SynthesisRequest> = {}) {
  const user = await seedUser(t.db);
  const voice = (await findVoice(t.db, promptId))!;
  const request: SynthesisRequest = { text, voice, speed: 1, pitch: 0, volume: 1, format: "mp3", ...settings };
  const taskId = await requestSynthesis(t.domain, user.id, request, async () => {});
  return { userId: user.id, taskId };
}

async function saved(key: string, name: string) {
  const file = path.join(dir, name);
  const chunks: Buffer[] = [];
  for await (const c of await t.files.read(key)) chunks.push(c as Buffer);
  writeFileSync(file, Buffer.concat(chunks));
  return file;
}

describe("the synthesis job (real engines, real database)", () => {
  it("speaks Chinese with espeak-ng: status 2, progress mirrored, an MP3 in the store, the 'tts' task counted", {
    timeout: 60_000,
  }, async () => {
    const text = "今天是2024年3月5日。会议上午10:30开始，预算增长了3.5%。\n\n请大家准时参加，谢谢！";
    const { userId, taskId } = await queuedTask(text, 2);
    const events: unknown[] = [];
    t.events.subscribe((event) => events.push(event));
    const seen: { status: number; progress: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
        seen.push({ status: row.status, progress: row.progress });
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const outcome = await synthesizeSpeech(taskId, {
      domain: t.domain,
      files: t.files,
      tts: configuredTtsEngines(t.config),
      progressEveryMs: 0,
    });
    polling = false;
    await poller;
    expect(outcome).toMatchObject({ status: "done" });
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({
      status: FileStatus.Complete,
      progress: 100,
      attempts: 1,
      errorCode: null,
      refundedAt: null,
    });
    expect(row.outputKey).toMatch(new RegExp(`^tts/${userId}/${taskId}-[0-9a-f]{12}\\.mp3$`));
    expect(row.fileSize).toBe(await t.files.size(row.outputKey!));
    const stats = await audioStats(await saved(row.outputKey!, "zh.mp3"));
    expect(Math.abs(stats.seconds * 1000 - row.durationMs!)).toBeLessThan(150);
    // about 3–7 syllables a second, pauses included, for the spoken form of the text
    const syllables = "二零二四年三月五日会议上午十点三十分开始预算增长了百分之三点五请大家准时参加谢谢".length + 4;
    expect(stats.seconds).toBeGreaterThan(syllables / 7);
    expect(stats.seconds).toBeLessThan(syllables / 2.5);
    expect(stats.peak).toBeGreaterThan(0.3);
    expect(stats.speechRms).toBeGreaterThan(0.03);
    // progress was mirrored while running and never went back
    const running = seen.filter((s) => s.status === FileStatus.Transcribing && s.progress > 0);
    expect(running.length).toBeGreaterThan(0);
    const values = seen.map((s) => s.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const progress = await t.db.taskProgress.findFirst({ where: { userId, task: { action: "tts" } } });
    expect(progress?.progressAmount).toBe(1);
    // announced after its commit
    expect(events).toContainEqual({ type: "tts.done", userId, taskId });
    // a completed task is never failed or refunded afterwards, and a second run skips it
    expect(await failTtsTask(t.domain, taskId, { code: 40002, reason: "error" })).toBe(false);
    expect(await charsUsed(userId)).toBe([...text].length);
    expect(
      await synthesizeSpeech(taskId, { domain: t.domain, files: t.files, tts: configuredTtsEngines(t.config) }),
    ).toMatchObject({
      status: "skipped",
    });
  });

  it("speed, pitch, volume and the WAV format reach the output", { timeout: 60_000 }, async () => {
    const tts = configuredTtsEngines(t.config);
    const text = "The quick brown fox jumps over the lazy dog. It was a bright and sunny day.";
    const run = async (settings: Partial<SynthesisRequest>, name: string) => {
      const { taskId } = await queuedTask(text, 11, settings);
      await synthesizeSpeech(taskId, { domain: t.domain, files: t.files, tts });
      const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
      return { row, stats: await audioStats(await saved(row.outputKey!, name)) };
    };
    const base = await run({}, "base.mp3");
    const fast = await run({ speed: 1.6 }, "fast.mp3");
    const high = await run({ pitch: 5 }, "high.mp3");
    const quiet = await run({ volume: 0.3, format: "wav" }, "quiet.wav");
    expect(fast.stats.seconds).toBeLessThan(0.8 * base.stats.seconds);
    expect(12 * Math.log2(high.stats.medianF0 / base.stats.medianF0)).toBeGreaterThan(3);
    expect(quiet.row.outputKey).toMatch(/\.wav$/);
    expect(quiet.stats.speechRms).toBeLessThan(0.5 * base.stats.speechRms);
  });

  it("a personal voice on an eSpeak base: eSpeak speaks at its pitch and pace, and the output lands on its pitch", {
    timeout: 60_000,
  }, async () => {
    const text = "The weather was bright and clear this morning. We walked along the river to the old bridge.";
    const kiddo = (await findVoice(t.db, 14))!;
    expect(kiddo).toMatchObject({ engine: "espeak-ng", gender: "female" });
    const products = configuredTtsEngines(t.config);
    const espeak = products("espeak-ng");
    expect(espeak.pitchAndPaceNative).toBe(true);
    const base = analyseVoiceSample(await speakAsFloats(espeak, kiddo, text, 16_000), 16_000).profile!;
    // a lower, slower speaker than the base (whose pitch eSpeak can reach: the voice's -p 95 goes down to 0)
    const target = { ...base, medianHz: base.medianHz * 0.7, syllablesPerSecond: base.syllablesPerSecond * 0.9 };
    const user = await seedUser(t.db);
    const mine = await t.db.userVoice.create({
      data: {
        userId: user.id,
        name: "我的声音",
        language: "en",
        sourceKey: `voice/${user.id}/sample.wav`,
        status: 2,
        method: "match",
        basePromptId: 14,
        profile: target,
        baseProfile: { ...base },
      },
    });
    const request: SynthesisRequest = {
      text,
      voice: kiddo,
      speed: 1,
      pitch: 0,
      volume: 1,
      format: "wav",
      userVoice: { id: mine.id, name: mine.name },
    };
    const taskId = await requestSynthesis(t.domain, user.id, request, async () => {});
    const asked: SynthesisOptions[] = [];
    /** Test double: the real eSpeak engine, recording what it is asked for. */
    const recording: TtsEngine = {
      name: espeak.name,
      languages: espeak.languages,
      pitchAndPaceNative: espeak.pitchAndPaceNative,
      ready: (language) => espeak.ready(language),
      synthesize: (texts, options) => {
        asked.push(options);
        return espeak.synthesize(texts, options);
      },
    };
    const tts = (name: string) => (name === "espeak-ng" ? recording : products(name));
    expect(await synthesizeSpeech(taskId, { domain: t.domain, files: t.files, tts })).toMatchObject({ status: "done" });
    const plan = nativeMatch(base, target);
    expect(asked[0]).toMatchObject({ pitch: plan.semitones, speed: plan.speed });
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
    const stats = await audioStats(await saved(row.outputKey!, "mine.wav"));
    expect(Math.abs(stats.medianF0 / target.medianHz - 1)).toBeLessThan(0.1);
  });

  it("a task deleted or failed while it runs stops quietly and leaves no file behind", {
    timeout: 30_000,
  }, async () => {
    const { taskId } = await queuedTask("one. two. three. four. five.", 11);
    const slow = new FakeSlowTtsEngine(300);
    const running = synthesizeSpeech(taskId, { domain: t.domain, files: t.files, tts: () => slow, progressEveryMs: 0 });
    await waitFor(
      "the task to run",
      async () => (await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } })).progress > 0,
    );
    await failTtsTask(t.domain, taskId, { code: 40002, reason: "stuck-running" });
    await expect(running).rejects.toMatchObject({ name: "TtsTaskGoneError" });
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
    expect(row).toMatchObject({ status: FileStatus.Failed, outputKey: null });
  });

  it("an attempt that runs past its limit is aborted and fails as a timeout", { timeout: 30_000 }, async () => {
    const { taskId } = await queuedTask("one. two. three. four.", 11);
    const outcome = await synthesizeSpeech(taskId, {
      domain: t.domain,
      files: t.files,
      tts: () => new FakeSlowTtsEngine(400),
      timeoutMs: 500,
    }).catch((e: unknown) => e);
    expect(outcome).toMatchObject({ name: "PermanentSynthesisError", reason: "timeout" });
  });

  it("a dead worker's task is claimed again (running → running, attempts + 1)", async () => {
    const { taskId } = await queuedTask("hello", 11);
    expect(await claimTtsTask(t.domain, taskId)).toMatchObject({ id: taskId, attempts: 1 });
    expect(await claimTtsTask(t.domain, taskId)).toMatchObject({ id: taskId, attempts: 2 });
  });
});

describe("the tts queue worker: retries, final failure and refund", () => {
  it("retries a failing engine, then fails the task with 40002, refunds it and tells the user", {
    timeout: 60_000,
  }, async () => {
    const engine = new FakeFailingTtsEngine();
    const worker = await startTestTtsWorker(t, { tts: () => engine, lockDuration: 5000, stalledInterval: 2000 });
    const events: unknown[] = [];
    t.events.subscribe((event) => events.push(event));
    try {
      const { userId, taskId } = await queuedTask("hello world", 11);
      expect(await charsUsed(userId)).toBe(11);
      await t.queues
        .queue(QueueName.Tts)
        .add(
          SYNTHESIZE_JOB,
          { taskId },
          { jobId: ttsJobId(taskId), attempts: 3, backoff: { type: "fixed", delay: 100 } },
        );
      const row = await waitFor("the task to fail", async () => {
        const r = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
        return r.status === FileStatus.Failed ? r : undefined;
      });
      expect(engine.calls).toBe(3);
      expect(row).toMatchObject({ errorCode: 40002, errorReason: "error", attempts: 3, progress: 0 });
      expect(row.errorMessage).toMatch(/boom/);
      expect(row.refundedAt).toEqual(row.finishedAt);
      expect(await charsUsed(userId)).toBe(0);
      const message = await t.db.notification.findFirstOrThrow({ where: { userId, sourceRef: `tts:${taskId}` } });
      expect(message.notifyText).toContain("已退还所用字数");
      expect(events).toContainEqual({ type: "tts.failed", userId, taskId, code: 40002 });
    } finally {
      await worker.stop();
    }
  });

  it("fails at once with 70001 when the engine is not installed (no retry), and refunds", {
    timeout: 60_000,
  }, async () => {
    const missing: TtsEngine = {
      name: "festival",
      languages: ["en"],
      ready: async () => {
        throw new TtsEngineUnavailableError("festival", "festival was not found (/nonexistent)", "festival-missing");
      },
      synthesize: async () => {
        throw new Error("unreachable");
      },
    };
    const worker = await startTestTtsWorker(t, { tts: () => missing, lockDuration: 5000, stalledInterval: 2000 });
    try {
      const { userId, taskId } = await queuedTask("hello world", 8);
      const job = await t.queues
        .queue(QueueName.Tts)
        .add(
          SYNTHESIZE_JOB,
          { taskId },
          { jobId: ttsJobId(taskId), attempts: 3, backoff: { type: "fixed", delay: 100 } },
        );
      const row = await waitFor("the task to fail", async () => {
        const r = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
        return r.status === FileStatus.Failed ? r : undefined;
      });
      expect(row).toMatchObject({ errorCode: 70001, errorReason: "engine-unavailable/festival-missing", attempts: 1 });
      expect(await charsUsed(userId)).toBe(0);
      await waitFor("the job to be failed", async () => (await job.getState()) === "failed");
      expect((await t.queues.queue(QueueName.Tts).getJob(job.id!))?.attemptsMade).toBe(1);
    } finally {
      await worker.stop();
    }
  });

  it("runs a real job end to end through the queue", { timeout: 60_000 }, async () => {
    const worker = await startTestTtsWorker(t);
    try {
      const { taskId } = await queuedTask("Good morning. The library opens at 9:00 am.", 8, { format: "wav" });
      await t.queues.queue(QueueName.Tts).add(SYNTHESIZE_JOB, { taskId }, { jobId: ttsJobId(taskId), attempts: 3 });
      const row = await waitFor(
        "the synthesis",
        async () => {
          const r = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
          return r.status === FileStatus.Complete ? r : undefined;
        },
        45_000,
      );
      expect(row.durationMs).toBeGreaterThan(2000);
    } finally {
      await worker.stop();
    }
  });
});

describe("stuck text-to-speech tasks (housekeeping)", () => {
  it("fails and refunds tasks running too long or whose job is gone; leaves fresh ones", async () => {
    const stuck = await queuedTask("stuck text", 11);
    await t.db.ttsTask.update({
      where: { id: stuck.taskId },
      data: { status: FileStatus.Transcribing, startedAt: new Date(Date.now() - 3 * 3600_000) },
    });
    const lost = await queuedTask("lost text", 11);
    await t.db.ttsTask.update({ where: { id: lost.taskId }, data: { createdAt: new Date(Date.now() - 20 * 60_000) } });
    const fresh = await queuedTask("fresh text", 11);
    const queue = t.queues.queue(QueueName.Tts);
    expect(await failStuckTtsTasks(t.domain, { queue })).toBeGreaterThanOrEqual(2);
    for (const task of [stuck, lost]) {
      const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: task.taskId } });
      expect(row).toMatchObject({ status: FileStatus.Failed, errorCode: 40002 });
      expect(row.refundedAt).not.toBeNull();
      expect(await charsUsed(task.userId)).toBe(0);
    }
    expect((await t.db.ttsTask.findUniqueOrThrow({ where: { id: lost.taskId } })).errorReason).toBe("job-lost");
    expect((await t.db.ttsTask.findUniqueOrThrow({ where: { id: fresh.taskId } })).status).toBe(FileStatus.InQueue);
    const again = await runHousekeeping(t.domain, { queues: t.queues });
    expect(again.failedStuckTtsTasks).toBe(0);
  });
});
