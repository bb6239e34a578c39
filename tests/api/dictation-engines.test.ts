import { FileStatus, type Segment, StatusCode } from "@yuelu/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, devSession, type SignedIn, type TestApp } from "../helpers/app.ts";
import { seedCards, seedRecord, seedUser } from "../helpers/factories.ts";

/**
 * What users are told about the speech engines (from the workers' heartbeats), and the refusal at
 * request time: a language whose engine is not ready is refused before anything is charged or queued.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
type Report = { language: string; engine: string; available: boolean; problem?: string; progress?: number };

/** A live worker reporting `engines` (what apps/worker writes every 30 s). */
async function workerReports(engines: Report[]) {
  await t.db.workerHeartbeat.deleteMany({});
  await t.db.workerHeartbeat.create({
    data: { workerId: `test-${Date.now()}`, hostname: "gpu-1", pid: 1, engines, seenAt: new Date() },
  });
}

const DOWNLOADING: Report[] = [
  { language: "zh", engine: "sherpa", available: false, problem: "model-downloading", progress: 42 },
  { language: "en", engine: "moonshine", available: true },
  { language: "auto", engine: "sherpa", available: false, problem: "model-downloading", progress: 42 },
];

async function userWithRecord(): Promise<SignedIn & { fileId: number }> {
  const user = await seedUser(t.db);
  await seedCards(t.db, user.id, [{ seconds: 36_000 }]);
  const who = await devSession(t, user.phone!);
  const record = await seedRecord(t.db, { userId: user.id, timeLen: 120 });
  return { ...who, fileId: record.fileId };
}

async function wallet(userId: number) {
  const cards = await t.db.timeCard.findMany({ where: { userId } });
  return cards.reduce((sum, c) => sum + c.remaining, 0);
}

beforeEach(async () => {
  await t.db.workerHeartbeat.deleteMany({});
});

describe("dictation/configuration: each language's engine state in words", () => {
  it("downloading n%, ready, and not installed — in zh and en, never a path", async () => {
    await workerReports([
      DOWNLOADING[0]!,
      { language: "en", engine: "moonshine", available: true },
      { language: "auto", engine: "sherpa", available: false, problem: "model-failed" },
    ]);
    const who = await userWithRecord();
    const zh = await t.http().get(api("/api/v1/dictation/configuration")).set("Cookie", who.cookie);
    const [chinese, english, auto] = zh.body.data.languages;
    expect(chinese).toMatchObject({ value: "zh", available: false, state: "downloading", progress: 42 });
    expect(chinese.missing).toContain("42%");
    expect(chinese.missing).toContain("正在下载");
    expect(english).toMatchObject({ value: "en", available: true, state: "ready" });
    expect(english.missing).toBeUndefined();
    expect(auto).toMatchObject({ value: "auto", available: false, state: "failed" });
    expect(auto.missing).toBe("语种自动识别模型下载未成功，系统会自动重试，请稍后再试或联系站点管理员");

    const en = await t.http().get(api("/api/v1/dictation/configuration?lang=en")).set("Cookie", who.cookie);
    expect(en.body.data.languages[0].missing).toMatch(/downloading \(42%\)/);
    expect(JSON.stringify(en.body)).not.toMatch(/\/(tmp|home|root|var|usr|data|work|opt)\//);
  });

  it("not installed says so in users' words; live captions per language, so the recorder can say it first (issue 41)", async () => {
    await t.db.workerHeartbeat.create({
      data: {
        workerId: `test-live-${Date.now()}`,
        hostname: "gpu-1",
        pid: 1,
        seenAt: new Date(),
        engines: [
          { language: "zh", engine: "sherpa", available: false, problem: "model-missing" },
          { language: "en", engine: "moonshine", available: true },
          { language: "auto", engine: "none", available: false, problem: "no-language-id" },
          { kind: "live", language: "zh", engine: "sherpa-streaming", available: false, url: "ws://127.0.0.1:1" },
          { kind: "live", language: "en", engine: "moonshine-stream", available: true, url: "ws://127.0.0.1:1" },
        ],
      },
    });
    const who = await userWithRecord();
    const res = await t.http().get(api("/api/v1/dictation/configuration")).set("Cookie", who.cookie);
    expect(res.body.data.languages[0]).toMatchObject({
      value: "zh",
      state: "missing",
      missing: "本站暂未安装中文识别，请联系站点管理员",
    });
    expect(res.body.data.live).toEqual({ zh: false, en: true });
  });

  it("with no worker running every language says so", async () => {
    const who = await userWithRecord();
    const res = await t.http().get(api("/api/v1/dictation/configuration?lang=en")).set("Cookie", who.cookie);
    for (const language of res.body.data.languages) {
      expect(language).toMatchObject({ available: false, state: "missing", engine: "none" });
      expect(language.missing).toMatch(
        / is not running yet\. Please try again later or contact the site administrator$/,
      );
    }
  });
});

describe("refusal at request time", () => {
  it("Chinese while its model downloads: 70001 with the percentage, nothing charged, nothing queued", async () => {
    await workerReports(DOWNLOADING);
    const who = await userWithRecord();
    const before = await wallet(who.userId);
    const param = JSON.stringify({ language: "zh" });
    const one = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", who.cookie)
      .send({ fileId: who.fileId, dictationParam: param });
    expect(one.body.status_code).toBe(StatusCode.EngineUnavailable);
    expect(one.body.status_msg).toContain("42%");
    expect(one.body.status_msg).not.toMatch(/\//);

    const batch = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation_batch?lang=en"))
      .set("Cookie", who.cookie)
      .send({ fileIds: [who.fileId], dictationParam: param });
    expect(batch.body.status_code).toBe(StatusCode.EngineUnavailable);
    expect(batch.body.status_msg).toMatch(/downloading \(42%\).*try again shortly/);

    expect(await wallet(who.userId)).toBe(before);
    expect(await t.db.transcriptionTask.count({ where: { userId: who.userId } })).toBe(0);
    const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: who.fileId } });
    expect(record.fileStatus).toBe(FileStatus.Waiting);
    const counts = await t.queues.queue("transcription").getJobCounts("waiting", "delayed", "active");
    expect((counts.waiting ?? 0) + (counts.delayed ?? 0) + (counts.active ?? 0)).toBe(0);
  });

  it("'auto' without an engine that identifies languages is refused, saying to choose the language", async () => {
    await workerReports([
      { language: "zh", engine: "openai-compatible", available: true },
      { language: "en", engine: "moonshine", available: true },
      { language: "auto", engine: "none", available: false, problem: "no-language-id" },
    ]);
    const who = await userWithRecord();
    const res = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation?lang=en"))
      .set("Cookie", who.cookie)
      .send({ fileId: who.fileId, dictationParam: JSON.stringify({ language: "auto" }) });
    expect(res.body.status_code).toBe(StatusCode.EngineUnavailable);
    expect(res.body.status_msg).toMatch(/choose the language/);
    expect(await t.db.transcriptionTask.count({ where: { userId: who.userId } })).toBe(0);
  });

  it("a ready language is accepted (English while Chinese downloads), and with no worker alive the job waits in the queue", async () => {
    await workerReports(DOWNLOADING);
    const who = await userWithRecord();
    const en = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", who.cookie)
      .send({ fileId: who.fileId, dictationParam: JSON.stringify({ language: "en" }) });
    expect(en.body.status_code).toBe(StatusCode.Success);

    await t.db.workerHeartbeat.deleteMany({});
    const other = await userWithRecord();
    const zh = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", other.cookie)
      .send({ fileId: other.fileId, dictationParam: JSON.stringify({ language: "zh" }) });
    expect(zh.body.status_code).toBe(StatusCode.Success);
  });
});

describe("get_text at full size", () => {
  const VOCABULARY =
    "我们 今天 讨论 一下 明年 的 预算 和 招聘 计划 这个 问题 需要 大家 一起 想 办法 市场 部门 提出 了 新的 方案 客户 反馈 产品 质量 还 不错 但是 价格 偏高 所以 我们 要 控制 成本 同时 保证 交付 时间".split(
      " ",
    );
  function fiveHours(): Segment[] {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    return Array.from({ length: 3600 }, (_, i) => {
      const words = Array.from({ length: 8 + (next() % 10) }, () => VOCABULARY[next() % VOCABULARY.length]);
      const text = `${words.join("")}。`;
      const startTime = i * 5000;
      return {
        spkName: `说话人${1 + (i % 3)}`,
        startTime,
        endTime: startTime + 4800,
        text,
        words: [...text].map((c, j) => ({
          text: c,
          startTime: startTime + j * 150,
          endTime: startTime + j * 150 + 140,
        })),
      };
    });
  }

  it("3 600 segments travel compressed in well under 200 KB, without word timings unless asked", async () => {
    const who = await userWithRecord();
    await t.db.transcript.create({
      data: { fileId: who.fileId, asrResult: fiveHours() as unknown as object, language: "zh" },
    });
    await t.db.audioRecord.update({ where: { fileId: who.fileId }, data: { fileStatus: FileStatus.Complete } });
    const url = api(`/api/v2/audio/text/get_text?fileId=${who.fileId}`);

    const raw = await t.http().get(url).set("Cookie", who.cookie).set("Accept-Encoding", "identity");
    const segments = JSON.parse(raw.body.data.asrResult) as Segment[];
    expect(segments).toHaveLength(3600);
    expect(segments[0]!.words).toBeUndefined();

    for (const encoding of ["br", "gzip"]) {
      // inject: the bytes as they leave the server (supertest would decompress them)
      const res = await t.app.inject({
        method: "GET",
        url,
        headers: { cookie: who.cookie, "accept-encoding": encoding },
      });
      expect(res.headers["content-encoding"]).toBe(encoding);
      const wire = res.rawPayload.length;
      console.log(`get_text, 3 600 segments: ${Buffer.byteLength(raw.text)} bytes raw, ${wire} bytes ${encoding}`);
      expect(wire).toBeLessThan(200_000);
    }

    const withWords = await t.http().get(`${url}&withWords=1`).set("Cookie", who.cookie);
    expect(JSON.parse(withWords.body.data.asrResult)[0].words.length).toBeGreaterThan(5);

    // an edit from the page (no word timings) keeps the timings of the segments it did not change
    const edited = segments.map((s, i) => (i === 0 ? { ...s, text: "改过的第一段。" } : s));
    const save = await t
      .http()
      .post(api("/api/v1/audio/text/update_text"))
      .set("Cookie", who.cookie)
      .send({ fileId: who.fileId, asrResult: edited });
    expect(save.body.status_code).toBe(StatusCode.Success);
    const stored = (await t.db.transcript.findUniqueOrThrow({ where: { fileId: who.fileId } }))
      .asrResult as unknown as Segment[];
    // the edited segment's words are timed again within it, from the words it kept (issue 45)
    const edited0 = stored[0]!.words ?? [];
    expect(edited0.map((w) => w.text).join("")).toBe("改过的第一段。");
    for (const [i, w] of edited0.entries()) {
      expect(w.startTime).toBeGreaterThanOrEqual(stored[0]!.startTime);
      expect(w.endTime).toBeLessThanOrEqual(stored[0]!.endTime);
      expect(w.startTime).toBeGreaterThanOrEqual(edited0[i - 1]?.startTime ?? 0);
    }
    expect(stored[1]!.words).toEqual(JSON.parse(withWords.body.data.asrResult)[1].words);
  });
});
