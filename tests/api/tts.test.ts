import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SYNTHESIZE_JOB, TTS_MAX_CHARS, ttsJobId } from "@yuelu/contracts";
import { businessDay, failTtsTask, findVoice, requestSynthesis, sampleKey } from "@yuelu/domain";
import { loadConfig, QueueName } from "@yuelu/runtime";
import type { Test } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { waitFor } from "../helpers/tasks.ts";
import { audioStats, reportTtsEngines, startTestTtsWorker } from "../helpers/tts.ts";

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ TTS_DAILY_CHARS: "1000", TTS_DAILY_CHARS_MEMBER: "20000" });
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-tts-api-"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
const today = () => businessDay(new Date(), t.config.BUSINESS_TZ);
const ZH = "今天天气很好，我们一起去公园散步。";
const EN = "The weather is bright and clear this morning.";
/** Seeded voice ids (prisma/src/seed/voices.ts). */
const YUNFENG = 1;
const SARAH = 8;
const MIKE = 11;
const NOVA = 17;

async function user(options: { member?: boolean } = {}): Promise<SignedIn> {
  for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) {
    await t.limiter.reset(`sms:ip:${ip}`);
    await t.limiter.reset(`login:ip:${ip}`);
  }
  const who = await signIn(t);
  await t.db.user.update({
    where: { id: who.userId },
    data: { memberEffectiveTime: options.member ? new Date(Date.now() + 30 * 86_400_000) : null },
  });
  return who;
}

const start = (who: SignedIn, body: Record<string, unknown>) =>
  t.http().post(api("/tts/start_tts")).set("Cookie", who.cookie).send(body);
const charsUsed = async (userId: number) =>
  (await t.db.ttsQuotaDay.findUnique({ where: { userId_day: { userId, day: today() } } }))?.charsUsed ?? 0;
const ttsQueue = () => t.queues.queue(QueueName.Tts);
/** An audio answer read whole into res.body (a Buffer). */
const binary = (req: Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => done(null, Buffer.concat(chunks)));
  });

describe("sign-in", () => {
  it.each([
    ["POST", "/tts/start_tts"],
    ["GET", "/tts/get_progress?taskIds=1"],
    ["GET", "/tts/task_list"],
    ["GET", "/tts/get_task?taskId=1"],
    ["POST", "/tts/rename"],
    ["POST", "/tts/delete"],
    ["GET", "/tts/quota"],
    ["GET", "/tts/download?taskId=1"],
  ])("%s %s without a session → 10001", async (method, p) => {
    const res = method === "GET" ? await t.http().get(api(p)) : await t.http().post(api(p)).send({ text: "x" });
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });

  it("the voice library is public", async () => {
    for (const p of ["/new_tts/labs/get_sound_list", "/new_tts/labs/select_options"]) {
      expect((await t.http().get(api(p))).body.status_code).toBe(1);
    }
  });
});

describe("OpenAPI", () => {
  it("documents every call of the voice library and of text to speech", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    for (const p of [
      "/new_tts/labs/get_sound_list",
      "/new_tts/labs/select_options",
      "/new_tts/labs/try_listen",
      "/new_tts/labs/sample",
      "/tts/start_tts",
      "/tts/get_progress",
      "/tts/task_list",
      "/tts/get_task",
      "/tts/rename",
      "/tts/delete",
      "/tts/quota",
      "/tts/download",
    ]) {
      expect(Object.keys(doc.paths)).toContain(`/voice_yuelu${p}`);
    }
    expect(doc.paths["/voice_yuelu/tts/start_tts"].post.requestBody).toBeDefined();
  });
});

describe("get_sound_list and select_options", () => {
  it("answers {total, list} of the offline voices, with the spec's fields", async () => {
    const res = await t.http().get(api("/new_tts/labs/get_sound_list?page=1&pageSize=100&timeStamp=1"));
    expect(res.body.status_code).toBe(1);
    const { total, list } = res.body.data;
    expect(total).toBe(list.length);
    expect(total).toBe(15); // remote voices are not listed without their server
    expect(list.every((v: { engine: string }) => ["espeak-ng", "festival"].includes(v.engine))).toBe(true);
    const yunfeng = list.find((v: { promptId: number }) => v.promptId === YUNFENG);
    expect(yunfeng).toMatchObject({
      promptId: YUNFENG,
      name: "云峰",
      nameEn: "Yunfeng",
      language: "zh",
      gender: "male",
      ageGroup: "adult",
      style: "news",
      engine: "espeak-ng",
      labels: { language: "中文", gender: "男声", style: "新闻播报" },
      audioUrl: "",
      playing: false,
      isDefault: true,
    });
    expect(yunfeng.sampleText).toContain("2024年3月5日");
    // no worker runs: every voice says so, in words, without a path
    expect(yunfeng).toMatchObject({ available: false, missing: expect.stringContaining("语音合成服务暂未启动") });
    expect(list.find((v: { promptId: number }) => v.promptId === SARAH).isDefault).toBe(true);
    // Chinese voices first
    expect(list[0].language).toBe("zh");
  });

  it("pages, filters, drops every filter whose value is -1 (spec §5), and answers English", async () => {
    const page = await t.http().get(api("/new_tts/labs/get_sound_list?page=2&pageSize=4"));
    expect(page.body.data.total).toBe(15);
    expect(page.body.data.list).toHaveLength(4);
    const en = await t
      .http()
      .get(api("/new_tts/labs/get_sound_list?language=en&gender=female&ageGroup=-1&style=-1&engine=-1&lang=en"));
    expect(en.body.data.list.map((v: { nameEn: string }) => v.nameEn).sort()).toEqual(
      ["Emma (British)", "Kiki", "Nora (storyteller)", "Sarah (natural)"].sort(),
    );
    expect(en.body.data.list[0].name).toBe(en.body.data.list[0].nameEn);
    expect(en.body.data.list[0].labels.gender).toBe("Female");
    const all = await t.http().get(api("/new_tts/labs/get_sound_list?language=-1&gender=-1&pageSize=100"));
    expect(all.body.data.total).toBe(15);
    const festival = await t.http().post(api("/new_tts/labs/get_sound_list")).send({ engine: "festival", page: 1 });
    expect(festival.body.data.list.map((v: { promptId: number }) => v.promptId)).toEqual([8, 9, 10]);
    const keyword = await t.http().get(api(`/new_tts/labs/get_sound_list?keyword=${encodeURIComponent("晓雪")}`));
    expect(keyword.body.data.list.map((v: { promptId: number }) => v.promptId)).toEqual([2]);
  });

  it.each([
    ["language=fr", "language"],
    ["gender=robot", "gender"],
    ["page=0", "page"],
    ["pageSize=abc", "pageSize"],
  ])("%s → 10002 naming %s", async (query, field) => {
    const res = await t.http().get(api(`/new_tts/labs/get_sound_list?${query}`));
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });

  it("select_options: the values the voices have, labelled, the default voices and the limits", async () => {
    const zh = (await t.http().get(api("/new_tts/labs/select_options"))).body.data;
    expect(zh.languages).toEqual([
      { value: "zh", label: "中文" },
      { value: "en", label: "英文" },
    ]);
    expect(zh.genders.map((g: { value: string }) => g.value)).toEqual(["male", "female", "neutral"]);
    expect(zh.styles.map((s: { value: string }) => s.value)).not.toContain("cloned");
    expect(zh.engines.map((e: { value: string }) => e.value)).toEqual(["espeak-ng", "festival"]);
    expect(zh.defaults).toEqual({ zh: YUNFENG, en: SARAH });
    expect(zh.limits).toEqual({
      maxChars: 5000,
      speed: { min: 0.5, max: 2, default: 1 },
      pitch: { min: -12, max: 12, default: 0 },
      volume: { min: 0.1, max: 2, default: 1 },
      formats: ["mp3", "wav"],
    });
    const en = (await t.http().get(api("/new_tts/labs/select_options")).set("Cookie", "lang=en")).body.data;
    expect(en.ageGroups.find((a: { value: string }) => a.value === "senior").label).toBe("Senior");
  });

  it("lists the neural voices where OPENAI_TTS_URL is set, and TTS_ENGINE_EN picks the English default", async () => {
    const other = await createTestApp({ OPENAI_TTS_URL: "http://127.0.0.1:9", TTS_ENGINE_EN: "openai-compatible" });
    try {
      const res = await other.http().get(api("/new_tts/labs/get_sound_list?pageSize=100"));
      expect(res.body.data.total).toBe(18);
      const nova = res.body.data.list.find((v: { promptId: number }) => v.promptId === NOVA);
      expect(nova).toMatchObject({ engine: "openai-compatible", labels: { engine: "神经网络语音" } });
      const options = (await other.http().get(api("/new_tts/labs/select_options"))).body.data;
      expect(options.defaults.en).toBe(NOVA);
    } finally {
      await other.close();
    }
  });
});

describe("start_tts", () => {
  it("creates the task (status 3), charges its characters and queues one job with the fixed id", async () => {
    const who = await user();
    const res = await start(who, { text: ZH, promptId: YUNFENG, speed: "1.25", pitch: -2, volume: 0.8, format: "wav" });
    expect(res.body.status_code).toBe(1);
    const task = res.body.data;
    expect(task).toMatchObject({
      title: ZH,
      text: ZH,
      chars: [...ZH].length,
      language: "zh",
      promptId: YUNFENG,
      voiceName: "云峰",
      engine: "espeak-ng",
      speed: 1.25,
      pitch: -2,
      volume: 0.8,
      format: "wav",
      status: 3,
      progress: 0,
      audioUrl: "",
      downloadUrl: "",
    });
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row).toMatchObject({
      userId: who.userId,
      charsCharged: [...ZH].length,
      quotaDay: today(),
      refundedAt: null,
    });
    expect(row.voiceParams).toMatchObject({ voice: "cmn", variant: "m1" });
    expect(await charsUsed(who.userId)).toBe([...ZH].length);
    const job = await ttsQueue().getJob(ttsJobId(task.taskId));
    expect(job).toMatchObject({ name: SYNTHESIZE_JOB, data: { taskId: task.taskId } });
    expect(job?.opts).toMatchObject({ attempts: 3, backoff: { type: "exponential", delay: 2000 } });
  });

  it("without promptId speaks with the default voice of the text's language; takes a form body", async () => {
    const who = await user();
    const zh = await t.http().post(api("/tts/start_tts")).set("Cookie", who.cookie).type("form").send({ text: ZH });
    expect(zh.body.data).toMatchObject({ promptId: YUNFENG, format: "mp3", speed: 1, pitch: 0, volume: 1 });
    const en = await start(who, { text: EN, title: "Morning" });
    expect(en.body.data).toMatchObject({ promptId: SARAH, engine: "festival", title: "Morning" });
    const mixed = await start(who, { text: "Hello 世界, this is mostly English text." });
    expect(mixed.body.data.promptId).toBe(SARAH);
  });

  it("5000 characters pass (Han or emoji alike), 5001 answer 10002 naming text", async () => {
    const who = await user({ member: true });
    const ok = await start(who, { text: `${"好".repeat(TTS_MAX_CHARS - 1)}😀` });
    expect(ok.body.status_code).toBe(1);
    expect(ok.body.data.chars).toBe(5000);
    const over = await start(who, { text: "好".repeat(TTS_MAX_CHARS + 1) });
    expect(over.body.status_code).toBe(10002);
    expect(over.body.status_msg).toContain("text");
    expect(over.body.status_msg).toContain("5000");
    const en = await start(who, { text: "a".repeat(5001) }).set("Cookie", `${who.cookie}; lang=en`);
    expect(en.body.status_msg).toBe("Missing or invalid parameter: text (at most 5000 characters)");
    expect(await t.db.ttsTask.count({ where: { userId: who.userId } })).toBe(1);
  });

  it.each([
    ["no text", { text: undefined }, "text"],
    ["blank text", { text: "   \n " }, "text"],
    ["text a number", { text: 5 }, "text"],
    ["text with NUL", { text: "hello\u0000world" }, "text"],
    ["promptId a word", { promptId: "abc" }, "promptId"],
    ["promptId negative", { promptId: -1 }, "promptId"],
    ["speed 3", { speed: 3 }, "speed"],
    ["speed a word", { speed: "fast" }, "speed"],
    ["pitch 13", { pitch: 13 }, "pitch"],
    ["volume 0", { volume: 0 }, "volume"],
    ["format ogg", { format: "ogg" }, "format"],
    ["title too long", { title: "t".repeat(51) }, "title"],
  ])("%s → 10002 naming the field, nothing created or charged", async (_name, body, field) => {
    const who = await user();
    const res = await start(who, { text: EN, promptId: MIKE, ...body });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
    expect(await t.db.ttsTask.count({ where: { userId: who.userId } })).toBe(0);
    expect(await charsUsed(who.userId)).toBe(0);
  });

  it("an unknown voice, a disabled one, or a remote one this install does not list → 10002 naming promptId", async () => {
    const who = await user();
    for (const promptId of [999_999, NOVA]) {
      const res = await start(who, { text: EN, promptId });
      expect(res.body.status_code).toBe(10002);
      expect(res.body.status_msg).toContain("promptId");
      expect(res.body.status_msg).toContain("没有这个音色");
    }
    expect(await t.db.ttsTask.count({ where: { userId: who.userId } })).toBe(0);
  });

  it("an English voice cannot read Chinese text → 10002", async () => {
    const who = await user();
    const res = await start(who, { text: ZH, promptId: SARAH });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("promptId");
    expect(res.body.status_msg).toContain("中文");
  });

  it("a voice whose engine the running workers lack → 70001 naming the package, nothing charged", async () => {
    const who = await user();
    const broken = loadConfig({
      ...process.env,
      FESTIVAL_BIN: "/nonexistent/festival",
      ESPEAK_NG_BIN: "/nonexistent/espeak-ng",
    });
    const workerId = await reportTtsEngines(t.db, broken);
    try {
      const res = await start(who, { text: EN, promptId: SARAH });
      expect(res.body.status_code).toBe(70001);
      expect(res.body.status_msg).toBe("服务引擎不可用：该音色暂时无法使用，请换一个音色、稍后再试或联系站点管理员");
      const zh = await start(who, { text: ZH, promptId: YUNFENG }).set("Cookie", `${who.cookie}; lang=en`);
      expect(zh.body.status_msg).toContain("This voice cannot be used right now");
      // users read plain sentences; what to install is for the operator, in /readyz
      expect(JSON.stringify([res.body, zh.body])).not.toMatch(/apt-get|espeak|festival/);
      const ready = await t.http().get("/readyz");
      const reports = ready.body.workers.list.flatMap((w: { ttsEngines: { fix?: string }[] }) => w.ttsEngines);
      expect(reports.map((r: { fix?: string }) => r.fix)).toContain("apt-get install festival festvox-us-slt-hts");
      expect(JSON.stringify([res.body, zh.body])).not.toContain("/nonexistent");
      expect(await t.db.ttsTask.count({ where: { userId: who.userId } })).toBe(0);
      const list = await t.http().get(api("/new_tts/labs/get_sound_list?engine=festival"));
      expect(list.body.data.list[0]).toMatchObject({
        available: false,
        missing: expect.stringContaining("该音色暂时无法使用"),
      });
    } finally {
      await t.db.workerHeartbeat.deleteMany({ where: { workerId } });
    }
  });
});

describe("the daily character quota", () => {
  it("refuses past the cap with 50003 and keeps nothing; members have the larger cap", async () => {
    const who = await user();
    await t.db.ttsQuotaDay.create({ data: { userId: who.userId, day: today(), charsUsed: 990 } });
    const res = await start(who, { text: "a b c d e f", promptId: MIKE });
    expect(res.body).toMatchObject({ status_code: 50003, data: null });
    expect(res.body.status_msg).toContain("1000");
    expect(await t.db.ttsTask.count({ where: { userId: who.userId } })).toBe(0);
    expect(await charsUsed(who.userId)).toBe(990);
    const exact = await start(who, { text: "abcdefghij", promptId: MIKE });
    expect(exact.body.status_code).toBe(1);
    expect(await charsUsed(who.userId)).toBe(1000);
    const quota = await t.http().get(api("/tts/quota")).set("Cookie", who.cookie);
    expect(quota.body.data).toEqual({ charsUsedToday: 1000, charsLimitToday: 1000, maxChars: 5000, member: false });

    await t.db.user.update({
      where: { id: who.userId },
      data: { memberEffectiveTime: new Date(Date.now() + 86_400_000) },
    });
    expect((await start(who, { text: "abcdefghij", promptId: MIKE })).body.status_code).toBe(1);
    expect((await t.http().get(api("/tts/quota")).set("Cookie", who.cookie)).body.data.charsLimitToday).toBe(20_000);
  });

  it("parallel start_tts never pass the cap together: exactly as many as fit, each charged once", async () => {
    const who = await user();
    const text = "x".repeat(300);
    const answers = await Promise.all(Array.from({ length: 10 }, () => start(who, { text, promptId: MIKE })));
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(3);
    expect(codes.filter((c) => c === 50003)).toHaveLength(7);
    expect(await charsUsed(who.userId)).toBe(900);
    const tasks = await t.db.ttsTask.findMany({ where: { userId: who.userId } });
    expect(tasks).toHaveLength(3);
    expect(tasks.every((x) => x.charsCharged === 300)).toBe(true);
    const jobs = await ttsQueue().getJobs(["waiting", "delayed", "active", "prioritized"]);
    expect(jobs.filter((j) => tasks.some((x) => (j.data as { taskId: number }).taskId === x.id))).toHaveLength(3);
  });

  it("a failed task gives its characters back exactly once, in the transaction that fails it", async () => {
    const who = await user();
    const res = await start(who, { text: "x".repeat(400), promptId: MIKE });
    const taskId = res.body.data.taskId;
    expect(await charsUsed(who.userId)).toBe(400);
    const failure = { code: 40002, reason: "error", detail: "test" };
    const results = await Promise.all([1, 2, 3].map(() => failTtsTask(t.domain, taskId, failure)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await charsUsed(who.userId)).toBe(0);
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: taskId } });
    expect(row.status).toBe(-1);
    expect(row.refundedAt).not.toBeNull();
    const progress = await t
      .http()
      .get(api(`/tts/get_progress?taskIds=${taskId}`))
      .set("Cookie", who.cookie);
    expect(progress.body.data[0]).toMatchObject({
      status: -1,
      errorCode: 40002,
      errorMsg: expect.stringContaining("已退还"),
    });
    const messages = await t.db.notification.findMany({ where: { userId: who.userId, sourceRef: `tts:${taskId}` } });
    expect(messages).toHaveLength(1);
  });

  it("a job that cannot be queued fails its task at once and refunds it (99999)", async () => {
    const who = await user();
    const voice = (await findVoice(t.db, MIKE))!;
    const request = { text: "hello there", voice, speed: 1, pitch: 0, volume: 1, format: "mp3" as const };
    await expect(
      requestSynthesis(t.domain, who.userId, request, async () => {
        throw new Error("redis is down");
      }),
    ).rejects.toMatchObject({ code: 99999 });
    const [row] = await t.db.ttsTask.findMany({ where: { userId: who.userId } });
    expect(row).toMatchObject({ status: -1, errorCode: 99999, errorReason: "not-queued" });
    expect(await charsUsed(who.userId)).toBe(0);
  });
});

describe("my works", () => {
  it("lists only the user's own works; another user's task is not found everywhere", async () => {
    const alice = await user();
    const bob = await user();
    const a1 = (await start(alice, { text: "first work", promptId: MIKE })).body.data.taskId;
    const a2 = (await start(alice, { text: "second work", promptId: MIKE })).body.data.taskId;
    const b1 = (await start(bob, { text: "bob's work", promptId: MIKE })).body.data.taskId;

    const list = await t.http().get(api("/tts/task_list?page=1&pageSize=10")).set("Cookie", alice.cookie);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.list.map((w: { taskId: number }) => w.taskId)).toEqual([a2, a1]);
    expect(list.body.data.list[0]).not.toHaveProperty("text");
    expect(list.body.data.list[0].textPreview).toBe("second work");
    const queued = await t.http().get(api("/tts/task_list?status=3")).set("Cookie", alice.cookie);
    expect(queued.body.data.total).toBe(2);

    const asBob = (p: string) => t.http().get(api(p)).set("Cookie", bob.cookie);
    expect((await asBob(`/tts/get_task?taskId=${a1}`)).body.status_code).toBe(30001);
    expect((await asBob(`/tts/download?taskId=${a1}`)).body.status_code).toBe(30001);
    const progress = await asBob(`/tts/get_progress?taskIds=${a1},${b1}`);
    expect(progress.body.data.map((p: { taskId: number; status: number }) => [p.taskId, p.status])).toEqual([
      [a1, -10],
      [b1, 3],
    ]);
    const rename = await t
      .http()
      .post(api("/tts/rename"))
      .set("Cookie", bob.cookie)
      .send({ taskId: a1, title: "mine" });
    expect(rename.body.status_code).toBe(30001);
    const del = await t
      .http()
      .post(api("/tts/delete"))
      .set("Cookie", bob.cookie)
      .send({ taskIds: `${b1},${a1}` });
    expect(del.body.status_code).toBe(30001);
    expect(await t.db.ttsTask.count({ where: { id: { in: [a1, b1] } } })).toBe(2);
    expect((await t.db.ttsTask.findUniqueOrThrow({ where: { id: a1 } })).title).toBe("first work");
  });

  it("renames (10002 for a bad title) and deletes, refunding a work that had not finished", async () => {
    const who = await user();
    const id = (await start(who, { text: "x".repeat(200), promptId: MIKE })).body.data.taskId;
    const bad = await t.http().post(api("/tts/rename")).set("Cookie", who.cookie).send({ taskId: id, title: " " });
    expect(bad.body.status_code).toBe(10002);
    const renamed = await t
      .http()
      .post(api("/tts/rename"))
      .set("Cookie", who.cookie)
      .send({ taskId: id, title: "旁白 1" });
    expect(renamed.body.data).toMatchObject({ taskId: id, title: "旁白 1" });
    expect(await charsUsed(who.userId)).toBe(200);
    const del = await t
      .http()
      .post(api("/tts/delete"))
      .set("Cookie", who.cookie)
      .send({ taskIds: [id] });
    expect(del.body).toMatchObject({ status_code: 1, data: { taskIds: [id] } });
    expect(await t.db.ttsTask.count({ where: { id } })).toBe(0);
    expect(await charsUsed(who.userId)).toBe(0);
    const again = await t
      .http()
      .post(api("/tts/delete"))
      .set("Cookie", who.cookie)
      .send({ taskIds: [id] });
    expect(again.body.status_code).toBe(30001);
  });

  it("a work's audio is 20003 until it is done", async () => {
    const who = await user();
    const id = (await start(who, { text: "not yet", promptId: MIKE })).body.data.taskId;
    const res = await t
      .http()
      .get(api(`/tts/download?taskId=${id}`))
      .set("Cookie", who.cookie);
    expect(res.body.status_code).toBe(20003);
  });
});

describe("with a real TTS worker (espeak-ng, festival)", () => {
  // The jobs the tests above queued are not under test here: the worker starts on an empty queue.
  beforeAll(async () => {
    await ttsQueue().obliterate({ force: true });
  });

  it("try_listen makes the sample once, serves it from the file store, and remakes it when the voice changes", {
    timeout: 90_000,
  }, async () => {
    const worker = await startTestTtsWorker(t);
    try {
      const first = await t.http().get(api(`/new_tts/labs/try_listen?promptId=${YUNFENG}`));
      expect(first.body.status_code).toBe(1);
      expect(first.body.data).toMatchObject({ promptId: YUNFENG, sampleText: expect.stringContaining("云峰") });
      expect(first.body.data.audioUrl).toMatch(/^\/voice_yuelu\/new_tts\/labs\/sample\?promptId=1&v=[0-9a-f]{16}$/);
      const voice = (await findVoice(t.db, YUNFENG))!;
      const key = sampleKey(voice);
      expect(await t.files.size(key)).toBeGreaterThan(5000);

      const audio = await binary(t.http().get(first.body.data.audioUrl));
      expect(audio.status).toBe(200);
      expect(audio.headers["content-type"]).toBe("audio/mpeg");
      expect(audio.headers["cache-control"]).toContain("immutable");
      const file = path.join(dir, "sample.mp3");
      writeFileSync(file, audio.body as Buffer);
      const stats = await audioStats(file);
      expect(stats.peak).toBeGreaterThan(0.1);
      expect(stats.seconds).toBeGreaterThan(3);
      const ranged = await t.http().get(first.body.data.audioUrl).set("Range", "bytes=0-99");
      expect(ranged.status).toBe(206);

      // cached: the same answer at once, no new job; the list now carries the address
      const started = Date.now();
      const second = await t.http().post(api("/new_tts/labs/try_listen")).send({ promptId: YUNFENG });
      expect(second.body.data.audioUrl).toBe(first.body.data.audioUrl);
      expect(Date.now() - started).toBeLessThan(1000);
      const list = await t.http().get(api("/new_tts/labs/get_sound_list?pageSize=100"));
      const item = list.body.data.list.find((v: { promptId: number }) => v.promptId === YUNFENG);
      expect(item).toMatchObject({ audioUrl: first.body.data.audioUrl, available: true });

      // the operator changes the voice: a new version, a new sample
      await t.db.voiceLibraryItem.update({
        where: { promptId: YUNFENG },
        data: { params: { voice: "cmn", variant: "m1", rate: 200, pitch: 30 } },
      });
      const third = await t.http().get(api(`/new_tts/labs/try_listen?promptId=${YUNFENG}`));
      expect(third.body.status_code).toBe(1);
      expect(third.body.data.audioUrl).not.toBe(first.body.data.audioUrl);
      const stale = await t.http().get(first.body.data.audioUrl);
      expect(stale.headers["cache-control"]).toBe("no-cache");
    } finally {
      await worker.stop();
      await t.db.voiceLibraryItem.update({
        where: { promptId: YUNFENG },
        data: { params: { voice: "cmn", variant: "m1", rate: 240, pitch: 42 } },
      });
    }
  });

  it("try_listen says why when it cannot: no worker, or an engine not installed", { timeout: 60_000 }, async () => {
    const none = await t
      .http()
      .get(api(`/new_tts/labs/try_listen?promptId=${MIKE}`))
      .set("Cookie", "lang=en");
    expect(none.body.status_code).toBe(70001);
    expect(none.body.status_msg).toContain("Speech synthesis is not running yet");
    const broken = loadConfig({ ...process.env, ESPEAK_NG_BIN: "/nonexistent/espeak-ng", LOG_LEVEL: "silent" });
    const worker = await startTestTtsWorker(t, { config: broken });
    try {
      const res = await t.http().get(api(`/new_tts/labs/try_listen?promptId=${MIKE}`));
      expect(res.body.status_code).toBe(70001);
      expect(res.body.status_msg).toContain("该音色暂时无法使用");
      const unknown = await t.http().get(api("/new_tts/labs/try_listen?promptId=999999"));
      expect(unknown.body.status_code).toBe(10002);
    } finally {
      await worker.stop();
    }
  });

  it("start_tts → a playable file: progress to 2, download and inline play, the daily 'tts' task counted", {
    timeout: 90_000,
  }, async () => {
    const worker = await startTestTtsWorker(t);
    try {
      const who = await user();
      const text = "会议定于2024年3月5日上午10:30开始，预算增长了3.5%。请大家准时参加！";
      const res = await start(who, { text, promptId: YUNFENG, format: "mp3" });
      const id = res.body.data.taskId;
      const done = await waitFor(
        "the synthesis",
        async () => {
          const p = await t
            .http()
            .get(api(`/tts/get_progress?taskIds=${id}`))
            .set("Cookie", who.cookie);
          return p.body.data[0].status === 2 ? p.body.data[0] : undefined;
        },
        60_000,
      );
      expect(done).toMatchObject({
        taskId: id,
        status: 2,
        progress: 100,
        audioUrl: `/voice_yuelu/tts/download?taskId=${id}&inline=1`,
        downloadUrl: `/voice_yuelu/tts/download?taskId=${id}`,
      });
      expect(done.durationMs).toBeGreaterThan(4000);
      const file = await binary(t.http().get(done.downloadUrl).set("Cookie", who.cookie));
      expect(file.status).toBe(200);
      expect(file.headers["content-type"]).toBe("audio/mpeg");
      expect(file.headers["content-disposition"]).toMatch(/^attachment; filename=.*\.mp3/);
      const saved = path.join(dir, "work.mp3");
      writeFileSync(saved, file.body as Buffer);
      const probed = Number(
        execFileSync("ffprobe", [
          "-v",
          "error",
          "-show_entries",
          "format=duration",
          "-of",
          "csv=p=0",
          saved,
        ]).toString(),
      );
      expect(Math.abs(probed * 1000 - done.durationMs)).toBeLessThan(200);
      const inline = await t.http().get(done.audioUrl).set("Cookie", who.cookie).set("Range", "bytes=100-");
      expect(inline.status).toBe(206);
      expect(inline.headers["content-disposition"]).toMatch(/^inline/);
      const other = await user();
      expect((await t.http().get(done.audioUrl).set("Cookie", other.cookie)).body.status_code).toBe(30001);

      const task = await t
        .http()
        .get(api(`/tts/get_task?taskId=${id}`))
        .set("Cookie", who.cookie);
      expect(task.body.data).toMatchObject({ status: 2, text, fileSize: (file.body as Buffer).length });
      const progress = await t.db.taskProgress.findFirst({ where: { userId: who.userId, task: { action: "tts" } } });
      expect(progress?.progressAmount).toBe(1);

      // deleting a finished work removes its file and keeps its charge
      const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id } });
      await t.http().post(api("/tts/delete")).set("Cookie", who.cookie).send({ taskIds: id });
      expect(await t.files.size(row.outputKey!)).toBeNull();
      expect(await charsUsed(who.userId)).toBe([...text].length);
    } finally {
      await worker.stop();
    }
  });
});
