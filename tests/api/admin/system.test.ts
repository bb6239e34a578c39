import { readFileSync } from "node:fs";
import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";
import { freshPhone, seedRecord, seedUser } from "../../helpers/factories.ts";

/**
 * The console's system area (docs/admin.md "System"): engines and what to install, queue depths,
 * failed jobs retried and removed (audited) on the configured queue backend, storage per user, the
 * version, and the daily figures computed in SQL in the business time zone.
 */

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  await setRole(t.domain, CLI_ACTOR, admin.phone, "admin");
});
afterAll(async () => {
  await t?.close();
});

const url = (p: string) => `/voice_yuelu/admin${p}`;
const get = (p: string) => t.http().get(url(p)).set("cookie", admin.cookie).set("lang", "en");
const post = (p: string, body: object) =>
  t.http().post(url(p)).set("cookie", admin.cookie).set("lang", "en").send(body);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  let value = await read();
  while (!ok(value) && Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

describe("engines and models", () => {
  it("lists the live workers' engines and tools, and what to install for each missing one", async () => {
    await t.db.workerHeartbeat.create({
      data: {
        workerId: "worker-test-1",
        hostname: "gpu-1",
        pid: 4242,
        engines: [
          { kind: "asr", language: "en", engine: "moonshine", available: true },
          { kind: "asr", language: "zh", engine: "whisper", available: false, problem: "model-missing" },
          { kind: "tts", language: "en", engine: "festival", available: false, problem: "festival-missing" },
        ],
        tools: [
          { name: "ffmpeg", available: true, source: "bundled", kind: "program", path: "/x/ffmpeg" },
          { name: "festival", available: false, install: "apt-get install festival festvox-us-slt-hts" },
        ],
      },
    });
    const res = await get("/system/engines");
    expect(res.body.status_code).toBe(1);
    const data = res.body.data;
    expect(data.workers).toHaveLength(1);
    expect(data.workers[0]).toMatchObject({ workerId: "worker-test-1", hostname: "gpu-1", pid: 4242 });
    expect(data.workers[0].engines).toContainEqual(
      expect.objectContaining({ kind: "asr", language: "zh", available: false, problem: "model-missing" }),
    );
    const missing = Object.fromEntries(data.missing.map((m: { what: string; install: string }) => [m.what, m.install]));
    expect(missing["asr zh whisper"]).toContain("npm run models:fetch");
    expect(missing["tts en festival"]).toContain("apt-get install festival");
    expect(missing["tool festival"]).toContain("apt-get install festival");
    expect(missing["asr en moonshine"]).toBeUndefined();
    expect(data.models.list).toBe("npm run models:fetch -- --list");
    expect(data.apiTools.map((tool: { name: string }) => tool.name)).toEqual(["ffprobe", "ffmpeg"]);
  });

  it("says what to do in the console's language: a Chinese operator reads Chinese (issue 41)", async () => {
    await t.db.workerHeartbeat.create({
      data: {
        workerId: "worker-test-zh",
        hostname: "gpu-2",
        pid: 4343,
        engines: [{ kind: "asr", language: "zh", engine: "sherpa", available: false, problem: "model-failed" }],
        tools: [
          {
            name: "festival",
            available: false,
            install: "apt-get install festival festvox-us-slt-hts, or set FESTIVAL_BIN",
          },
        ],
      },
    });
    const res = await t.http().get(url("/system/engines")).set("cookie", admin.cookie).set("lang", "zh");
    const data = res.body.data;
    const missing = Object.fromEntries(data.missing.map((m: { what: string; install: string }) => [m.what, m.install]));
    // variables and commands stay as they are; the sentence around them is Chinese
    expect(missing["asr zh sherpa"]).toMatch(/^worker 会自动重试.*HF_ENDPOINT/);
    expect(missing["tool festival"]).toBe("apt-get install festival festvox-us-slt-hts，或设置 FESTIVAL_BIN");
    const worker = data.workers.find((w: { workerId: string }) => w.workerId === "worker-test-zh");
    expect(worker.engines[0].fix).toMatch(/^worker 会自动重试/);
    // /readyz and English consoles keep English
    const en = (await get("/system/engines")).body.data;
    const enWorker = en.workers.find((w: { workerId: string }) => w.workerId === "worker-test-zh");
    expect(enWorker.engines[0].fix).toMatch(/^the worker retries by itself/);
  });
});

describe("queues and failed jobs", () => {
  /** Jobs on the voice queue that fail at once (no handler of the product runs in these tests). */
  async function failJobs(names: string[]): Promise<string[]> {
    const queue = t.queues.queue(QueueName.Voice);
    const worker = t.queues.worker(QueueName.Voice, async () => {
      throw new Error("boom: engine crashed");
    });
    try {
      const jobs = await Promise.all(names.map((name) => queue.add(name, { kind: "work", id: 1 }, { attempts: 1 })));
      const ids = jobs.map((j) => String(j.id));
      await eventually(
        async () => Promise.all(ids.map(async (id) => (await queue.getJob(id))?.getState())),
        (states) => states.every((s) => s === "failed"),
      );
      return ids;
    } finally {
      await worker.close();
    }
  }

  it("shows each queue's depths, lists failed jobs, and retries or removes one (audited)", async () => {
    await t.queues.queue(QueueName.Tts).add("synthesize", { taskId: 1 }, { delay: 60_000 });
    const [first, second] = await failJobs(["voice", "voice"]);

    const depths = await get("/system/queues");
    expect(depths.body.data.backend).toBe(t.queues.kind);
    const byName = Object.fromEntries(depths.body.data.queues.map((q: { name: string }) => [q.name, q]));
    expect(Object.keys(byName).sort()).toEqual([
      "clips",
      "housekeeping",
      "notes",
      "transcription",
      "tts",
      "tts-samples",
      "voice",
      "webhooks",
    ]);
    expect(byName.voice).toMatchObject({ failed: 2, active: 0 });
    expect(byName.tts).toMatchObject({ delayed: 1 });

    const failed = await get("/system/jobs/failed?queue=voice");
    expect(failed.body.data.total).toBe(2);
    expect(failed.body.data.items[0]).toMatchObject({
      queue: "voice",
      name: "voice",
      failedReason: "boom: engine crashed",
      attemptsMade: 1,
      attempts: 1,
      data: { kind: "work", id: 1 },
    });
    expect(failed.body.data.items[0].failedAt).not.toBeNull();
    const all = await get("/system/jobs/failed?pageSize=1");
    expect(all.body.data).toMatchObject({ total: 2, pageSize: 1 });
    expect(all.body.data.items).toHaveLength(1);

    const retried = await post(`/system/jobs/voice/${first}/retry`, {});
    expect(retried.body.data).toEqual({ queue: "voice", id: first, done: "retried" });
    const job = await t.queues.queue(QueueName.Voice).getJob(first!);
    expect(await job!.getState()).toBe("waiting");
    expect(job!.attemptsMade).toBe(0);
    // only failed jobs: the retried one now waits
    expect((await post(`/system/jobs/voice/${first}/retry`, {})).body.status_code).toBe(30001);

    expect((await post(`/system/jobs/voice/${second}/remove`, {})).body.data.done).toBe("removed");
    expect(await t.queues.queue(QueueName.Voice).getJob(second!)).toBeUndefined();
    expect((await post("/system/jobs/voice/no-such-job/remove", {})).body.status_code).toBe(30001);

    const audits = await t.db.adminAudit.findMany({
      where: { action: { startsWith: "job." } },
      orderBy: { id: "asc" },
    });
    expect(audits).toMatchObject([
      {
        action: "job.retry",
        target: `job:voice/${first}`,
        actorId: admin.userId,
        before: { failedReason: "boom: engine crashed" },
      },
      { action: "job.remove", target: `job:voice/${second}`, actorId: admin.userId },
    ]);
    await t.queues.queue(QueueName.Voice).obliterate({ force: true });
  });

  it("retries every failed job of a queue at once", async () => {
    await failJobs(["voice", "voice", "voice"]);
    const res = await post("/system/jobs/retry-failed", { queue: "voice" });
    expect(res.body.data).toEqual({ retried: 3 });
    expect((await get("/system/jobs/failed?queue=voice")).body.data.total).toBe(0);
    const audit = await t.db.adminAudit.findFirstOrThrow({ where: { action: "jobs.retry-failed" } });
    expect(audit).toMatchObject({ target: "queue:voice", after: { retried: 3 } });
    await t.queues.queue(QueueName.Voice).obliterate({ force: true });
  });

  it.each([
    ["get", "/system/jobs/failed?queue=nope", "queue"],
    ["post", "/system/jobs/nope/1/retry", "queue"],
    ["post", "/system/jobs/retry-failed", "queue"],
  ])("answers 10002 naming the field: %s %s", async (method, path, field) => {
    const res = method === "get" ? await get(path) : await post(path, { queue: "nope" });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });
});

describe("storage and version", () => {
  it("ranks users by the bytes their records and works take", async () => {
    const big = await seedUser(t.db);
    const small = await seedUser(t.db);
    for (let i = 0; i < 3; i++) await seedRecord(t.db, { userId: big.id });
    await seedRecord(t.db, { userId: small.id });
    await t.db.ttsTask.create({
      data: {
        userId: small.id,
        title: "hello",
        text: "hello",
        chars: 5,
        language: "en",
        voiceName: "v",
        engine: "espeak-ng",
        voiceParams: {},
        status: 2,
        fileSize: 500,
      },
    });
    const res = await get("/system/storage");
    expect(res.body.status_code).toBe(1);
    expect(res.body.data).toMatchObject({ total: 2, totalBytes: 3 * 1024 + 1024 + 500 });
    expect(res.body.data.items).toMatchObject([
      { userId: big.id, phone: big.phone, records: 3, recordBytes: 3072, workBytes: 0, bytes: 3072 },
      { userId: small.id, records: 1, recordBytes: 1024, workBytes: 500, bytes: 1524 },
    ]);
    const ascending = await get("/system/storage?order=asc&pageSize=1");
    expect(ascending.body.data.items).toMatchObject([{ userId: small.id }]);
    expect((await get("/system/storage?sort=phone")).body.status_msg).toContain("sort");
  });

  it("answers the version of the install and how it runs", async () => {
    const root = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8"));
    const res = await get("/system/version");
    expect(res.body.data).toMatchObject({
      version: root.version,
      node: process.version,
      queueBackend: t.queues.kind,
      fileStore: "local",
      paymentProvider: "mock-alipay",
      businessTimeZone: t.config.BUSINESS_TZ,
    });
  });
});

describe("daily figures", () => {
  it("counts sign-ups, minutes, money and beans per business day, zero-filled, in SQL", async () => {
    // Asia/Shanghai is UTC+8: 2024-03-10 runs from 2024-03-09T16:00Z to 2024-03-10T16:00Z
    expect(t.config.BUSINESS_TZ).toBe("Asia/Shanghai");
    const on10th = new Date("2024-03-10T03:00:00Z");
    const lateOn10th = new Date("2024-03-10T15:59:00Z");
    const on11th = new Date("2024-03-10T16:30:00Z"); // 00:30 on the 11th in Shanghai
    const u1 = await t.db.user.create({ data: { phone: freshPhone(), nickName: "a", createdAt: on10th } });
    await t.db.user.create({ data: { phone: freshPhone(), nickName: "b", createdAt: lateOn10th } });
    await t.db.user.create({ data: { phone: freshPhone(), nickName: "c", createdAt: on11th } });

    const order = (n: string, amountFen: number, paidAt: Date, refundedAt: Date | null = null) =>
      t.db.order.create({
        data: {
          orderNumber: `FIG${n}`,
          userId: u1.id,
          goodsId: 1,
          amountFen,
          tradeStatus: 1,
          expiresAt: paidAt,
          createdAt: paidAt,
          paidAt,
          grantedAt: paidAt,
          refundedAt,
        },
      });
    await order("1", 600, on10th);
    await order("2", 8400, lateOn10th, on11th);
    await t.db.order.create({
      data: { orderNumber: "FIG3", userId: u1.id, goodsId: 1, amountFen: 999, expiresAt: on10th, createdAt: on10th },
    }); // never paid: no money

    const ledger = (amount: number, at: Date, ref: string) =>
      t.db.beanLedger.create({
        data: { userId: u1.id, amount, reason: "seed", refId: ref, balanceAfter: 0, createdAt: at },
      });
    await ledger(50, on10th, "f1");
    await ledger(30, on10th, "f2");
    await ledger(-20, on10th, "f3");
    await ledger(-5, on11th, "f4");

    const rec = await seedRecord(t.db, { userId: u1.id, timeLen: 150 });
    await t.db.transcriptionTask.create({ data: { fileId: rec.fileId, userId: u1.id, status: 2, finishedAt: on10th } });
    await t.db.transcriptionTask.create({
      data: { fileId: rec.fileId, userId: u1.id, status: -1, finishedAt: on10th },
    });

    const res = await get("/system/figures?from=2024-03-09&to=2024-03-11");
    expect(res.body.status_code, JSON.stringify(res.body)).toBe(1);
    expect(res.body.data).toMatchObject({ timeZone: "Asia/Shanghai", from: "2024-03-09", to: "2024-03-11" });
    const zero = {
      signUps: 0,
      minutesTranscribed: 0,
      paidFen: 0,
      refundedFen: 0,
      revenueFen: 0,
      beansIssued: 0,
      beansSpent: 0,
    };
    expect(res.body.data.days).toEqual([
      { day: "2024-03-09", ...zero },
      {
        day: "2024-03-10",
        signUps: 2,
        minutesTranscribed: 2,
        paidFen: 9000,
        refundedFen: 0,
        revenueFen: 9000,
        beansIssued: 80,
        beansSpent: 20,
      },
      { day: "2024-03-11", ...zero, signUps: 1, refundedFen: 8400, revenueFen: -8400, beansSpent: 5 },
    ]);
    expect(res.body.data.totals).toMatchObject({ signUps: 3, revenueFen: 600, beansIssued: 80, beansSpent: 25 });
  });

  it("covers the last 30 days by default and refuses bad ranges, naming the field", async () => {
    const res = await get("/system/figures");
    expect(res.body.data.days).toHaveLength(30);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: t.config.BUSINESS_TZ }).format(new Date());
    expect(res.body.data.to).toBe(today);
    expect(res.body.data.totals.signUps).toBeGreaterThanOrEqual(1); // the operator signed up today

    for (const [query, field] of [
      ["from=2024-03-12&to=2024-03-11", "from"],
      ["from=2020-01-01&to=2024-01-01", "from"],
      ["from=2024-13-01", "from"],
      ["to=tomorrow", "to"],
    ]) {
      const bad = await get(`/system/figures?${query}`);
      expect(bad.body.status_code, query).toBe(10002);
      expect(bad.body.status_msg, query).toContain(field);
    }
  });
});
