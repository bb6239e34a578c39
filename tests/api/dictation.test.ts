import { randomUUID } from "node:crypto";
import { TRANSCRIBE_JOB, transcriptionJobId } from "@yuelu/contracts";
import { businessDay, failTask, requestTranscriptions } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
const YEAR_MS = 365 * 86_400_000;
const PARAM = JSON.stringify({ source: 0, answerVersion: 3, language: "zh", speakerCount: 2 });
const today = () => businessDay(new Date(), t.config.BUSINESS_TZ);

/** signIn for a file that signs in many users: the per-IP SMS and login limits are not under test here. */
async function signInMany(): Promise<SignedIn> {
  for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) {
    await t.limiter.reset(`sms:ip:${ip}`);
    await t.limiter.reset(`login:ip:${ip}`);
  }
  return signIn(t);
}

/**
 * A signed-in user with exactly the time cards given (the welcome card is removed) and, unless
 * `member`, without the welcome membership, so the daily cap is DAILY_QUOTA_SECONDS.
 */
async function user(options: { cards?: { seconds: number; expiresInMs?: number }[]; member?: boolean } = {}) {
  const who = await signInMany();
  await t.db.user.update({
    where: { id: who.userId },
    data: { memberEffectiveTime: options.member ? new Date(Date.now() + 30 * 86_400_000) : null },
  });
  await t.db.timeCard.deleteMany({ where: { userId: who.userId } });
  for (const card of options.cards ?? [{ seconds: 36_000 }]) {
    await t.db.timeCard.create({
      data: {
        userId: who.userId,
        seconds: card.seconds,
        remaining: card.seconds,
        expiresAt: new Date(Date.now() + (card.expiresInMs ?? YEAR_MS)),
        source: "purchase",
        refId: randomUUID(),
      },
    });
  }
  return who;
}

async function record(
  who: SignedIn,
  data: { timeLen?: number; fileStatus?: number; deletedAt?: Date | null; fileName?: string } = {},
) {
  return t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: data.fileName ?? "会议记录.mp3",
      format: "mp3",
      fileSize: 123_456n,
      timeLen: data.timeLen ?? 60,
      storageKey: `test/${randomUUID()}.mp3`,
      fileStatus: data.fileStatus ?? 0,
      deletedAt: data.deletedAt ?? null,
    },
  });
}

const dictation = (who: SignedIn, body: Record<string, unknown>) =>
  t.http().post(api("/api/v2/dictation/audio/dictation")).set("Cookie", who.cookie).send(body);
const batch = (who: SignedIn, body: Record<string, unknown>) =>
  t.http().post(api("/api/v2/dictation/audio/dictation_batch")).set("Cookie", who.cookie).send(body);

async function cardRemaining(userId: number) {
  const cards = await t.db.timeCard.aggregate({ where: { userId }, _sum: { remaining: true } });
  return cards._sum.remaining ?? 0;
}
async function quotaUsed(userId: number) {
  const day = await t.db.quotaDay.findUnique({ where: { userId_day: { userId, day: today() } } });
  return day?.secondsUsed ?? 0;
}
const transcriptionQueue = () => t.queues.queue(QueueName.Transcription);

describe("sign-in is required", () => {
  it.each([
    ["POST", "/api/v2/dictation/audio/dictation"],
    ["POST", "/api/v2/dictation/audio/dictation_batch"],
    ["GET", "/api/v1/dictation/progress/get_progress?fileIds=1"],
    ["GET", "/api/v1/dictation/partial?fileId=1"],
    ["GET", "/api/v1/dictation/configuration"],
  ])("%s %s without a session → 10001", async (method, path) => {
    const res = method === "GET" ? await t.http().get(api(path)) : await t.http().post(api(path)).send({ fileId: 1 });
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });
});

describe("dictation", () => {
  it("queues one file: a task (status 3) with its charge, the record in queue, a job with the fixed jobId", async () => {
    const who = await user({ cards: [{ seconds: 3600 }] });
    const rec = await record(who, { timeLen: 125 });
    const res = await dictation(who, { fileId: String(rec.fileId), dictationParam: PARAM });
    expect(res.body.status_code).toBe(1);
    const [task] = res.body.data.tasks;
    expect(res.body.data.tasks).toHaveLength(1);
    expect(task).toEqual({ fileId: rec.fileId, taskId: expect.any(Number), fileStatus: 3, code: 1 });

    const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row).toMatchObject({
      fileId: rec.fileId,
      userId: who.userId,
      status: 3,
      progress: 0,
      language: "zh",
      speakerCount: 2,
      secondsCharged: 125,
      quotaDay: today(),
      refundedAt: null,
    });
    expect(await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: rec.fileId } })).toMatchObject({
      fileStatus: 3,
      progress: 0,
    });
    expect(await cardRemaining(who.userId)).toBe(3600 - 125);
    expect(await quotaUsed(who.userId)).toBe(125);
    const deductions = await t.db.timeCardDeduction.findMany({ where: { taskId: task.taskId } });
    expect(deductions.map((d) => d.seconds)).toEqual([125]);

    const job = await transcriptionQueue().getJob(transcriptionJobId(task.taskId));
    expect(job).toBeDefined();
    expect(job?.id).toBe(`task-${task.taskId}`);
    expect(job?.name).toBe(TRANSCRIBE_JOB);
    expect(job?.data).toEqual({ taskId: task.taskId });
    expect(job?.opts).toMatchObject({
      attempts: 3,
      backoff: { type: "exponential", delay: 5000 },
      removeOnComplete: 1000,
      removeOnFail: 5000,
    });
  });

  it("takes dictationParam as an object, or not at all (defaults: auto, 0 speakers)", async () => {
    const who = await user();
    const a = await record(who);
    const b = await record(who);
    const withObject = await dictation(who, {
      fileId: a.fileId,
      dictationParam: { source: "0", answerVersion: 3, language: "en", speakerCount: "3", extra: "ignored" },
    });
    expect(withObject.body.status_code).toBe(1);
    const noParam = await t
      .http()
      .post(api(`/api/v2/dictation/audio/dictation?fileId=${b.fileId}&timeStamp=1`))
      .set("Cookie", who.cookie);
    expect(noParam.body.status_code).toBe(1);
    const tasks = await t.db.transcriptionTask.findMany({ where: { userId: who.userId }, orderBy: { id: "asc" } });
    expect(tasks.map((x) => [x.language, x.speakerCount])).toEqual([
      ["en", 3],
      ["auto", 0],
    ]);
  });

  it("accepts a form-encoded body", async () => {
    const who = await user();
    const rec = await record(who);
    const res = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", who.cookie)
      .type("form")
      .send({ fileId: String(rec.fileId), dictationParam: PARAM });
    expect(res.body.status_code).toBe(1);
  });

  it.each([
    ["fileId missing", { fileId: undefined }, "fileId"],
    ["fileId not a number", { fileId: "abc" }, "fileId"],
    ["fileId with SQL", { fileId: "1; DROP TABLE audio_records; --" }, "fileId"],
    ["fileId negative", { fileId: -5 }, "fileId"],
    ["fileId an object", { fileId: { $gt: 0 } }, "fileId"],
    ["malformed dictationParam JSON", { dictationParam: "{language: zh" }, "dictationParam（不是有效的 JSON）"],
    ["dictationParam an array", { dictationParam: "[1,2]" }, "dictationParam"],
    ["dictationParam a number", { dictationParam: 5 }, "dictationParam"],
    ["speakerCount 11", { dictationParam: { speakerCount: 11 } }, "dictationParam.speakerCount"],
    ["speakerCount negative", { dictationParam: '{"speakerCount":-1}' }, "dictationParam.speakerCount"],
    ["speakerCount a word", { dictationParam: { speakerCount: "many" } }, "dictationParam.speakerCount"],
    ["unknown language", { dictationParam: { language: "fr" } }, "dictationParam.language"],
    ["language with HTML", { dictationParam: { language: "<script>alert(1)</script>" } }, "dictationParam.language"],
    ["huge dictationParam", { dictationParam: `{"x":"${"a".repeat(200_000)}"}` }, "dictationParam"],
    ["hot word over 50", { dictationParam: { hotWords: ["x".repeat(51)] } }, "dictationParam.hotWords"],
  ])("%s → 10002 naming the field, nothing charged", async (_name, body, field) => {
    const who = await user({ cards: [{ seconds: 3600 }] });
    const rec = await record(who);
    const res = await dictation(who, { fileId: rec.fileId, ...body });
    expect(res.status).toBe(200);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
    expect(await t.db.transcriptionTask.count({ where: { userId: who.userId } })).toBe(0);
    expect(await cardRemaining(who.userId)).toBe(3600);
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: rec.fileId } })).fileStatus).toBe(0);
  });

  it("another user's file, one in the recycle bin, or none → 30001, and nothing changes", async () => {
    const owner = await user();
    const other = await user();
    const theirs = await record(owner);
    const binned = await record(other, { deletedAt: new Date() });
    for (const fileId of [theirs.fileId, binned.fileId, 2_000_000_000]) {
      const res = await dictation(other, { fileId, dictationParam: PARAM });
      expect(res.body).toMatchObject({ status_code: 30001, data: null });
    }
    expect(await t.db.transcriptionTask.count({ where: { fileId: { in: [theirs.fileId, binned.fileId] } } })).toBe(0);
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: theirs.fileId } })).fileStatus).toBe(0);
    expect(await cardRemaining(other.userId)).toBe(36_000);
  });

  it("refuses audio over 3 hours with 50001; exactly 3 hours is accepted", async () => {
    const who = await user({ cards: [{ seconds: 20_000 }] });
    const long = await record(who, { timeLen: 3 * 3600 + 1 });
    const res = await dictation(who, { fileId: long.fileId, dictationParam: PARAM });
    expect(res.body).toMatchObject({ status_code: 50001, data: null });
    expect(res.body.status_msg).toContain("3");
    expect(await t.db.transcriptionTask.count({ where: { fileId: long.fileId } })).toBe(0);
    const limit = await record(who, { timeLen: 3 * 3600 });
    expect((await dictation(who, { fileId: limit.fileId, dictationParam: PARAM })).body.status_code).toBe(1);
    expect(await cardRemaining(who.userId)).toBe(20_000 - 3 * 3600);
  });

  it("refuses past the daily cap with 50002 (members have the larger cap)", async () => {
    const who = await user({ cards: [{ seconds: 100_000 }] });
    const rec = await record(who, { timeLen: 60 });
    await t.db.quotaDay.create({
      data: { userId: who.userId, day: today(), secondsUsed: t.config.DAILY_QUOTA_SECONDS - 59 },
    });
    const res = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(res.body).toMatchObject({ status_code: 50002, data: null });
    expect(await quotaUsed(who.userId)).toBe(t.config.DAILY_QUOTA_SECONDS - 59);
    expect(await cardRemaining(who.userId)).toBe(100_000);
    expect(await t.db.transcriptionTask.count({ where: { fileId: rec.fileId } })).toBe(0);
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: rec.fileId } })).fileStatus).toBe(0);

    // The same day's usage is within a member's cap.
    await t.db.user.update({
      where: { id: who.userId },
      data: { memberEffectiveTime: new Date(Date.now() + 86_400_000) },
    });
    expect((await dictation(who, { fileId: rec.fileId, dictationParam: PARAM })).body.status_code).toBe(1);
    expect(await quotaUsed(who.userId)).toBe(t.config.DAILY_QUOTA_SECONDS + 1);
  });

  it("refuses without enough card time with 20001; expired cards do not count", async () => {
    const who = await user({ cards: [{ seconds: 30 }, { seconds: 1000, expiresInMs: -1000 }] });
    const rec = await record(who, { timeLen: 60 });
    const res = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(res.body).toMatchObject({ status_code: 20001, data: null });
    expect(await quotaUsed(who.userId)).toBe(0); // the quota step rolled back with the rest
    expect(await cardRemaining(who.userId)).toBe(1030);
    expect(await t.db.transcriptionTask.count({ where: { fileId: rec.fileId } })).toBe(0);
  });

  it("draws from the card that expires first", async () => {
    const who = await user({
      cards: [
        { seconds: 100, expiresInMs: YEAR_MS },
        { seconds: 50, expiresInMs: 86_400_000 },
      ],
    });
    const rec = await record(who, { timeLen: 80 });
    const res = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(res.body.status_code).toBe(1);
    const cards = await t.db.timeCard.findMany({ where: { userId: who.userId }, orderBy: { expiresAt: "asc" } });
    expect(cards.map((c) => c.remaining)).toEqual([0, 70]);
  });

  it("a file already in queue answers its task and is not charged again; a finished one can be transcribed again", async () => {
    const who = await user({ cards: [{ seconds: 1000 }] });
    const rec = await record(who, { timeLen: 100 });
    const first = (await dictation(who, { fileId: rec.fileId, dictationParam: PARAM })).body.data.tasks[0];
    const again = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(again.body).toMatchObject({
      status_code: 1,
      data: { tasks: [{ taskId: first.taskId, fileStatus: 3, code: 1 }] },
    });
    await t.db.audioRecord.update({ where: { fileId: rec.fileId }, data: { fileStatus: 1, progress: 40 } });
    await t.db.transcriptionTask.update({ where: { id: first.taskId }, data: { status: 1 } });
    const transcribing = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(transcribing.body.data.tasks[0]).toMatchObject({ taskId: first.taskId, fileStatus: 1 });
    expect(await cardRemaining(who.userId)).toBe(900);

    await t.db.audioRecord.update({ where: { fileId: rec.fileId }, data: { fileStatus: 2, progress: 100 } });
    await t.db.transcriptionTask.update({ where: { id: first.taskId }, data: { status: 2 } });
    const redo = await dictation(who, { fileId: rec.fileId, dictationParam: PARAM });
    expect(redo.body.data.tasks[0].taskId).not.toBe(first.taskId);
    expect(await cardRemaining(who.userId)).toBe(800);
  });

  it("10 parallel calls for one file create one task, one charge and one job", async () => {
    const who = await user({ cards: [{ seconds: 5000 }] });
    const rec = await record(who, { timeLen: 300 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => dictation(who, { fileId: rec.fileId, dictationParam: PARAM })),
    );
    for (const a of answers) expect(a.body.status_code).toBe(1);
    const taskIds = new Set(answers.map((a) => a.body.data.tasks[0].taskId));
    expect(taskIds.size).toBe(1);
    const tasks = await t.db.transcriptionTask.findMany({ where: { fileId: rec.fileId } });
    expect(tasks).toHaveLength(1);
    expect(tasks[0]?.secondsCharged).toBe(300);
    expect(await t.db.timeCardDeduction.count({ where: { taskId: tasks[0]!.id } })).toBe(1);
    expect(await cardRemaining(who.userId)).toBe(4700);
    expect(await quotaUsed(who.userId)).toBe(300);
    const jobs = await transcriptionQueue().getJobs(["waiting", "delayed", "active", "prioritized"]);
    expect(jobs.filter((j) => (j.data as { taskId: number }).taskId === tasks[0]!.id)).toHaveLength(1);
  });

  it("parallel calls for different files never overspend the cards", async () => {
    const who = await user({ cards: [{ seconds: 1000 }] });
    const recs = await Promise.all(Array.from({ length: 10 }, () => record(who, { timeLen: 300 })));
    const answers = await Promise.all(recs.map((r) => dictation(who, { fileId: r.fileId, dictationParam: PARAM })));
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(3);
    expect(codes.filter((c) => c === 20001)).toHaveLength(7);
    expect(await cardRemaining(who.userId)).toBe(100);
    expect(await quotaUsed(who.userId)).toBe(900);
    expect(await t.db.transcriptionTask.count({ where: { userId: who.userId } })).toBe(3);
    expect(await t.db.audioRecord.count({ where: { userId: who.userId, fileStatus: 3 } })).toBe(3);
  });

  it("parallel calls for different files never pass the daily cap", async () => {
    const who = await user({ cards: [{ seconds: 100_000 }] });
    await t.db.quotaDay.create({
      data: { userId: who.userId, day: today(), secondsUsed: t.config.DAILY_QUOTA_SECONDS - 1000 },
    });
    const recs = await Promise.all(Array.from({ length: 10 }, () => record(who, { timeLen: 300 })));
    const answers = await Promise.all(recs.map((r) => dictation(who, { fileId: r.fileId, dictationParam: PARAM })));
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(3);
    expect(codes.filter((c) => c === 50002)).toHaveLength(7);
    expect(await quotaUsed(who.userId)).toBe(t.config.DAILY_QUOTA_SECONDS - 100);
    expect(await cardRemaining(who.userId)).toBe(100_000 - 900);
  });

  it("failing a task gives quota and card seconds back exactly once, in the same transaction", async () => {
    const who = await user({ cards: [{ seconds: 100, expiresInMs: 86_400_000 }, { seconds: 1000 }] });
    const rec = await record(who, { timeLen: 250 });
    const taskId = (await dictation(who, { fileId: rec.fileId, dictationParam: PARAM })).body.data.tasks[0].taskId;
    expect(await cardRemaining(who.userId)).toBe(850);
    expect(await quotaUsed(who.userId)).toBe(250);
    const failure = { code: 40001, reason: "error" };
    const results = await Promise.all([failTask(t.domain, taskId, failure), failTask(t.domain, taskId, failure)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await failTask(t.domain, taskId, failure)).toBe(false);
    const cards = await t.db.timeCard.findMany({ where: { userId: who.userId }, orderBy: { expiresAt: "asc" } });
    expect(cards.map((c) => c.remaining)).toEqual([100, 1000]);
    expect(await quotaUsed(who.userId)).toBe(0);
    expect((await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } })).refundedAt).not.toBeNull();
  });

  it("a task whose job could not be queued fails at once and is refunded", async () => {
    const who = await user({ cards: [{ seconds: 1000 }] });
    const rec = await record(who, { timeLen: 100 });
    const queueDown = async () => {
      throw new Error("the queue is down (a test's failing producer)");
    };
    const param = { source: 0, answerVersion: 3, language: "en" as const, speakerCount: 0 };
    const [outcome] = await requestTranscriptions(t.domain, who.userId, [rec.fileId], param, queueDown);
    expect(outcome).toMatchObject({ fileId: rec.fileId, code: 99999, fileStatus: -1 });
    expect(await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: outcome!.taskId! } })).toMatchObject({
      status: -1,
      errorCode: 99999,
      errorReason: "not-queued",
      refundedAt: expect.any(Date),
    });
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: rec.fileId } })).fileStatus).toBe(-1);
    expect(await cardRemaining(who.userId)).toBe(1000);
    expect(await quotaUsed(who.userId)).toBe(0);
  });

  it("adds dictationParam.hotWords to the user's saved hot words (the worker reads them)", async () => {
    const who = await user();
    await t.db.hotWord.create({ data: { userId: who.userId, word: "悦录" } });
    const rec = await record(who);
    const res = await dictation(who, {
      fileId: rec.fileId,
      dictationParam: JSON.stringify({ language: "zh", hotWords: [" 语音识别 ", "悦录", "<b>Yuelu</b>"] }),
    });
    expect(res.body.status_code).toBe(1);
    const words = await t.db.hotWord.findMany({ where: { userId: who.userId }, orderBy: { id: "asc" } });
    expect(words.map((w) => w.word)).toEqual(["悦录", "语音识别", "<b>Yuelu</b>"]);
  });
});

describe("dictation_batch", () => {
  it("handles each file on its own: refused files carry their code", async () => {
    const who = await user({ cards: [{ seconds: 1000 }] });
    const other = await user();
    const ok1 = await record(who, { timeLen: 100 });
    const tooLong = await record(who, { timeLen: 4 * 3600 });
    const theirs = await record(other);
    const ok2 = await record(who, { timeLen: 200 });
    const res = await batch(who, {
      fileIds: `${ok1.fileId},${tooLong.fileId}, ${theirs.fileId},${ok2.fileId},${ok1.fileId}`,
      dictationParam: PARAM,
    });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.tasks).toEqual([
      { fileId: ok1.fileId, taskId: expect.any(Number), fileStatus: 3, code: 1 },
      { fileId: tooLong.fileId, taskId: null, fileStatus: 0, code: 50001, message: expect.any(String) },
      { fileId: theirs.fileId, taskId: null, fileStatus: -10, code: 30001, message: expect.any(String) },
      { fileId: ok2.fileId, taskId: expect.any(Number), fileStatus: 3, code: 1 },
    ]);
    expect(await cardRemaining(who.userId)).toBe(700);
    for (const task of res.body.data.tasks.filter((x: { code: number }) => x.code === 1)) {
      expect(await transcriptionQueue().getJob(transcriptionJobId(task.taskId))).toBeDefined();
    }
  });

  it("takes fileIds as an array too", async () => {
    const who = await user();
    const a = await record(who);
    const b = await record(who);
    const res = await batch(who, { fileIds: [a.fileId, String(b.fileId)], dictationParam: PARAM });
    expect(res.body.data.tasks.map((x: { code: number }) => x.code)).toEqual([1, 1]);
  });

  it("when every file is refused the envelope carries the first refusal, data still lists each file", async () => {
    const who = await user({ cards: [{ seconds: 10 }] });
    const a = await record(who, { timeLen: 60 });
    const b = await record(who, { timeLen: 4 * 3600 });
    const res = await batch(who, { fileIds: `${a.fileId},${b.fileId}`, dictationParam: PARAM });
    expect(res.body.status_code).toBe(20001);
    expect(res.body.data.tasks.map((x: { code: number }) => x.code)).toEqual([20001, 50001]);
  });

  it.each([
    ["empty", ""],
    ["not ids", "1,abc"],
    ["SQL", "1) OR 1=1 --"],
    ["too many", Array.from({ length: 101 }, (_, i) => i + 1).join(",")],
  ])("bad fileIds (%s) → 10002", async (_name, fileIds) => {
    const who = await user();
    const res = await batch(who, { fileIds, dictationParam: PARAM });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("fileIds");
  });
});

describe("get_progress", () => {
  it("answers each file's status, progress and task; unknown or foreign files are -10", async () => {
    const who = await user();
    const other = await user();
    const waiting = await record(who);
    const queued = await record(who);
    const failed = await record(who, { fileStatus: -1 });
    const done = await record(who, { fileStatus: 2 });
    const theirs = await record(other);
    const queuedTask = (await dictation(who, { fileId: queued.fileId, dictationParam: PARAM })).body.data.tasks[0];
    await t.db.audioRecord.update({ where: { fileId: queued.fileId }, data: { fileStatus: 1, progress: 42 } });
    const failedTask = await t.db.transcriptionTask.create({
      data: { fileId: failed.fileId, userId: who.userId, status: -1, errorCode: 70001 },
    });
    const ids = [waiting, queued, failed, done, theirs].map((r) => r.fileId);
    const res = await t
      .http()
      .get(api(`/api/v1/dictation/progress/get_progress?fileIds=${ids.join(",")},999999999&timeStamp=1&lang=en`))
      .set("Cookie", who.cookie);
    expect(res.body.status_code).toBe(1);
    expect(res.body.data).toEqual([
      { fileId: waiting.fileId, fileStatus: 0, progress: 0, taskId: null },
      { fileId: queued.fileId, fileStatus: 1, progress: 42, taskId: queuedTask.taskId },
      {
        fileId: failed.fileId,
        fileStatus: -1,
        progress: 0,
        taskId: failedTask.id,
        errorCode: 70001,
        errorMsg: expect.stringContaining("engine"),
      },
      { fileId: done.fileId, fileStatus: 2, progress: 100, taskId: null },
      { fileId: theirs.fileId, fileStatus: -10, progress: 0, taskId: null },
      { fileId: 999_999_999, fileStatus: -10, progress: 0, taskId: null },
    ]);
    const single = await t
      .http()
      .get(api(`/api/v1/dictation/progress/get_progress?fileId=${queued.fileId}`))
      .set("Cookie", who.cookie);
    expect(single.body.data).toEqual([
      { fileId: queued.fileId, fileStatus: 1, progress: 42, taskId: queuedTask.taskId },
    ]);
  });

  it("needs fileIds or fileId", async () => {
    const who = await user();
    const res = await t.http().get(api("/api/v1/dictation/progress/get_progress")).set("Cookie", who.cookie);
    expect(res.body.status_code).toBe(10002);
    const bad = await t
      .http()
      .get(api("/api/v1/dictation/progress/get_progress?fileIds=a,b"))
      .set("Cookie", who.cookie);
    expect(bad.body.status_code).toBe(10002);
  });
});

describe("configuration", () => {
  it("lists zh, en and auto with their engine's availability, and the limits", async () => {
    const who = await user();
    for (const [lang, labels] of [
      ["zh", ["中文", "英文", "自动识别"]],
      ["en", ["Chinese", "English", "Auto-detect"]],
    ] as const) {
      const res = await t
        .http()
        .get(api(`/api/v1/dictation/configuration?lang=${lang}`))
        .set("Cookie", who.cookie);
      expect(res.body.status_code).toBe(1);
      expect(res.body.data).toMatchObject({ maxSpeakers: 10, maxSeconds: 10_800 });
      expect(res.body.data.languages.map((l: { value: string }) => l.value)).toEqual(["zh", "en", "auto"]);
      expect(res.body.data.languages.map((l: { label: string }) => l.label)).toEqual(labels);
      for (const l of res.body.data.languages) {
        expect(typeof l.available).toBe("boolean");
        expect(typeof l.engine).toBe("string");
        if (!l.available) expect(typeof l.missing).toBe("string");
      }
    }
  });

  it("appears in the OpenAPI document", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    for (const path of [
      "/voice_yuelu/api/v2/dictation/audio/dictation",
      "/voice_yuelu/api/v2/dictation/audio/dictation_batch",
      "/voice_yuelu/api/v1/dictation/progress/get_progress",
      "/voice_yuelu/api/v1/dictation/partial",
      "/voice_yuelu/api/v1/dictation/configuration",
    ]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
