import { mkdtemp, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus } from "@yuelu/contracts";
import { claimTask, completeTask } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleSms } from "../../apps/api/src/modules/account/sms.ts";
import { createTestApp, type SignedIn, signIn, type TestApp, uniquePhone } from "../helpers/app.ts";
import { seedCards, seedRecord } from "../helpers/factories.ts";

/**
 * The attacks a hostile client tried on a running install (issue 8), replayed: each answers an
 * envelope or a refusal, and balances stay as they were.
 */

let t: TestApp;
let alice: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const api = (p: string) => `/voice_yuelu${p}`;
const PARAM = JSON.stringify({ source: 0, answerVersion: 3, language: "en", speakerCount: 0 });

async function cardRemaining(userId: number) {
  const cards = await t.db.timeCard.findMany({ where: { userId } });
  return cards.reduce((sum, c) => sum + c.remaining, 0);
}

describe("free transcription by a race (delete_forever against restore)", () => {
  it("a refund happens only together with the deletion that justifies it", async () => {
    const who = await signIn(t);
    await seedCards(t.db, who.userId, [{ seconds: 100_000 }]);
    for (let round = 0; round < 8; round++) {
      const rec = await seedRecord(t.db, { userId: who.userId, timeLen: 100 });
      const queued = await t
        .http()
        .post(api("/api/v2/dictation/audio/dictation"))
        .set("Cookie", who.cookie)
        .send({ fileId: rec.fileId, dictationParam: PARAM });
      expect(queued.body.status_code).toBe(1);
      const taskId = queued.body.data.tasks[0].taskId as number;
      await t
        .http()
        .post(api("/api/v1/audio/record/delete_record"))
        .set("Cookie", who.cookie)
        .send({ fileId: rec.fileId });
      const before = await cardRemaining(who.userId);
      const [deleted, restored] = await Promise.all([
        t
          .http()
          .post(api("/api/v1/audio/record/delete_forever"))
          .set("Cookie", who.cookie)
          .send({ fileIds: `${rec.fileId}` }),
        t
          .http()
          .post(api("/api/v1/audio/record/restore"))
          .set("Cookie", who.cookie)
          .send({ fileIds: `${rec.fileId}` }),
      ]);
      const exists = (await t.db.audioRecord.findUnique({ where: { fileId: rec.fileId } })) !== null;
      const after = await cardRemaining(who.userId);
      if (exists) {
        // restore won: the delete answered 30001 and nothing was refunded — the task still runs, charged.
        expect(deleted.body.status_code).toBe(30001);
        expect(restored.body.status_code).toBe(1);
        expect(after).toBe(before);
        const task = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: taskId } });
        expect(task.refundedAt).toBeNull();
        // and the job finishing later is a paid transcription
        expect(await claimTask(t.domain, taskId)).not.toBeNull();
        expect(await completeTask(t.domain, taskId, { segments: [], language: "en" })).toBe(true);
      } else {
        // delete won: refunded with the deletion, and the job that runs later finds nothing to finish.
        expect(deleted.body.status_code).toBe(1);
        expect(restored.body.status_code).toBe(30001);
        expect(after).toBe(before + 100);
        expect(await claimTask(t.domain, taskId)).toBeNull();
        expect(await completeTask(t.domain, taskId, { segments: [], language: "en" })).toBe(false);
      }
    }
  });

  it("a running task whose record is deleted forever is refunded once and cannot complete", async () => {
    const who = await signIn(t);
    await seedCards(t.db, who.userId, [{ seconds: 1000 }]);
    const rec = await seedRecord(t.db, { userId: who.userId, timeLen: 200 });
    const queued = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", who.cookie)
      .send({ fileId: rec.fileId, dictationParam: PARAM });
    const taskId = queued.body.data.tasks[0].taskId as number;
    expect(await claimTask(t.domain, taskId)).not.toBeNull(); // a worker is on it
    const charged = await cardRemaining(who.userId);
    await t
      .http()
      .post(api("/api/v1/audio/record/delete_record"))
      .set("Cookie", who.cookie)
      .send({ fileId: rec.fileId });
    const gone = await t
      .http()
      .post(api("/api/v1/audio/record/delete_forever"))
      .set("Cookie", who.cookie)
      .send({ fileIds: `${rec.fileId}` });
    expect(gone.body.status_code).toBe(1);
    expect(await cardRemaining(who.userId)).toBe(charged + 200);
    expect(await completeTask(t.domain, taskId, { segments: [], language: "en" })).toBe(false);
    expect(await cardRemaining(who.userId)).toBe(charged + 200);
  });
});

describe("NUL characters and malformed bodies answer 10002, never 500", () => {
  let fileId: number;
  beforeAll(async () => {
    const rec = await seedRecord(t.db, { userId: alice.userId, fileStatus: FileStatus.Complete });
    fileId = rec.fileId;
    await t.db.transcript.create({
      data: { fileId, language: "en", asrResult: [{ spkName: "Speaker 1", startTime: 0, endTime: 900, text: "hi" }] },
    });
  });

  it.each([
    ["list fileName filter", "GET", "/api/v3/audio/all_list?fileName=a%00b", undefined, "fileName"],
    [
      "update_text segment text",
      "POST",
      "/api/v1/audio/text/update_text",
      () => ({ fileId, asrResult: [{ spkName: "Speaker 1", startTime: 0, text: "a\u0000b" }] }),
      "asrResult.0.text",
    ],
    [
      "update_text word",
      "POST",
      "/api/v1/audio/text/update_text",
      () => ({
        fileId,
        asrResult: [
          { spkName: "Speaker 1", startTime: 0, text: "ab", words: [{ text: "\u0000", startTime: 0, endTime: 1 }] },
        ],
      }),
      "asrResult.0.words.0.text",
    ],
    ["update_para", "POST", "/text/update_para", () => ({ fileId, index: 0, text: "x\u0000" }), "text"],
    ["update_abstracts", "POST", "/text/update_abstracts", () => ({ fileId, abstracts: "s\u0000" }), "abstracts"],
    ["nickName", "POST", "/api/v1/user/update_info", () => ({ nickName: "ev\u0000il" }), "nickName"],
    ["a key", "POST", "/api/v1/user/update_info", () => ({ "nick\u0000Name": "x" }), "nick\\0Name"],
  ])("%s", async (_name, method, url, body, field) => {
    const req = method === "GET" ? t.http().get(api(url)) : t.http().post(api(url)).send(body?.());
    const res = await req.set("Cookie", alice.cookie);
    expect(res.status).toBeLessThan(500);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
    const stored = await t.db.transcript.findUniqueOrThrow({ where: { fileId } });
    expect(JSON.stringify(stored)).not.toContain("\\u0000");
  });

  const multipartRoutes = [
    ["anonymous login", "/account/api/login", false],
    ["folder create", api("/api/v2/menu/create"), true],
    ["upload", api("/api/v1/audio/upload"), true],
  ] as const;

  it.each(multipartRoutes)("%s: multipart without a boundary", async (_name, url, signedIn) => {
    const req = t.http().post(url).set("Content-Type", "multipart/form-data").send("junk");
    const res = await (signedIn ? req.set("Cookie", alice.cookie) : req);
    expect(res.status).toBeLessThan(500);
    expect(res.body.status_code).toBe(10002);
  });

  it.each(multipartRoutes)("%s: a truncated multipart body", async (_name, url, signedIn) => {
    const body = '--XX\r\nContent-Disposition: form-data; name="menuName"\r\n\r\nabc';
    const req = t.http().post(url).set("Content-Type", "multipart/form-data; boundary=XX").send(body);
    const res = await (signedIn ? req.set("Cookie", alice.cookie) : req);
    expect(res.status).toBeLessThan(500);
    expect([10002, 20004]).toContain(res.body.status_code);
  });

  it("a record named 'a:b.wav' downloads in a batch zip (entry 'a_b.wav')", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "yuelu-zip-"));
    try {
      const wav = path.join(dir, "x.wav");
      await writeFile(wav, Buffer.alloc(2048, 1));
      const rec = await seedRecord(t.db, { userId: alice.userId, audioFile: wav, files: t.files, fileName: "a:b.wav" });
      const res = await t
        .http()
        .get(api(`/api/v1/audio/download/batch?fileIds=${rec.fileId}`))
        .set("Cookie", alice.cookie)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on("data", (c: Buffer) => chunks.push(c));
          r.on("end", () => done(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      expect((res.body as Buffer).includes(Buffer.from("a_b.wav"))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("limits", () => {
  it("the 200-folder cap holds against 20 parallel creates", async () => {
    const who = await signIn(t);
    await t.db.folder.createMany({
      data: Array.from({ length: 199 }, (_, i) => ({ userId: who.userId, menuName: `f${i}` })),
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t
          .http()
          .post(api("/api/v2/menu/create"))
          .set("Cookie", who.cookie)
          .send({ menuName: `new${i}` }),
      ),
    );
    expect(answers.filter((a) => a.body.status_code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.body.status_code === 10002)).toHaveLength(19);
    expect(await t.db.folder.count({ where: { userId: who.userId } })).toBe(200);
  });

  it("a file part on a route that takes none is refused; an announced big body is refused unread", async () => {
    const small = await t
      .http()
      .post("/account/api/login")
      .field("phone", "13800000000")
      .attach("file", Buffer.alloc(1000, 1), "x.bin");
    expect(small.body.status_code).toBe(10002);
    expect(small.body.status_msg).toContain("file");
    // 20 MB announced: answered at once with 413, the body is not read
    const res = await rawRequest(
      "POST /account/api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=XX\r\n" +
        "Content-Length: 20000000\r\n\r\n--XX\r\n",
    );
    expect(res).toMatch(/^HTTP\/1\.1 413/);
    expect(res).toContain('"status_code":413');
  });

  it("JSON bodies stay within 1 MiB outside uploads", async () => {
    const res = await t
      .http()
      .post(api("/api/v2/menu/create"))
      .set("Cookie", alice.cookie)
      .set("Content-Type", "application/json")
      .send(JSON.stringify({ menuName: "x", pad: "a".repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(res.body.status_code).toBe(413);
  });

  it("virtual_login registers at most 30 new temporary codes per address per hour", async () => {
    const base = `hostile${Date.now()}`;
    const codes = await Promise.all(
      Array.from({ length: 35 }, (_, i) => t.http().get(api(`/api/v3/user/virtual_login?tempCode=${base}_${i}`))),
    );
    expect(codes.filter((r) => r.body.status_code === 1)).toHaveLength(30);
    expect(codes.filter((r) => r.body.status_code === 10003)).toHaveLength(5);
    // a code seen before is always answered
    const again = await t.http().get(api(`/api/v3/user/virtual_login?tempCode=${base}_0`));
    expect(again.body).toMatchObject({ status_code: 1, data: { firstSeen: false } });
    expect(await t.db.virtualVisitor.count({ where: { tempCode: { startsWith: base } } })).toBe(30);
  });
});

describe("the envelope everywhere", () => {
  it.each([
    ["a bad percent-escape", "GET /voice_yuelu/api/v1/user/info%E0%A4%A HTTP/1.1"],
    ["an unknown method", "FOO /voice_yuelu/api/v1/user/info HTTP/1.1"],
    ["a known but unrouted method", "PROPFIND /voice_yuelu/api/v1/user/info HTTP/1.1"],
    ["a broken request line", "GET /\u0001 HTTP/1.1"],
  ])("%s", async (_name, line) => {
    const res = await rawRequest(`${line}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    const body = res.slice(res.indexOf("\r\n\r\n") + 4);
    const json = JSON.parse(body) as { status_code: number; status_msg: string; data: unknown };
    expect(json).toMatchObject({ status_code: expect.any(Number), status_msg: expect.any(String), data: null });
    expect(json.status_code).not.toBe(1);
    expect(body).not.toMatch(/"error"|statusCode|stack/);
  });
});

describe("login codes are only answered to this machine", () => {
  let c: TestApp;
  const logged: string[] = [];
  beforeAll(async () => {
    const log = { info: (obj: unknown) => logged.push(JSON.stringify(obj)) };
    c = await createTestApp({ NODE_ENV: "development" }, { sms: consoleSms(log) });
  });
  afterAll(async () => {
    await c?.close();
  });

  it("a client on another host gets no devCode: the code goes to the server's log", async () => {
    const phone = uniquePhone();
    const res = await c.http().post("/account/api/sms/send").set("Host", "yuelu.example.com").send({ phone });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data).toEqual({ sent: true, expiresIn: 300, codeIn: "log" });
    expect(logged.some((l) => l.includes('"code"'))).toBe(true);
  });

  it("nor does a loopback connection that came through a proxy", async () => {
    const res = await c
      .http()
      .post("/account/api/sms/send")
      .set("Host", "localhost")
      .set("X-Forwarded-For", "203.0.113.9")
      .send({ phone: uniquePhone() });
    expect(res.body.data.devCode).toBeUndefined();
    expect(res.body.data.codeIn).toBe("log");
  });

  it("a browser on this machine gets it, and can sign in with it", async () => {
    const phone = uniquePhone();
    const res = await c.http().post("/account/api/sms/send").set("Host", "localhost").send({ phone });
    expect(res.body.data).toMatchObject({ codeIn: "answer", devCode: expect.stringMatching(/^\d{6}$/) });
  });
});

describe("cross-site requests and headers", () => {
  it("refuses state-changing requests from another site's page (Origin or Sec-Fetch-Site)", async () => {
    const phone = uniquePhone();
    const evil = await t.http().post("/account/api/sms/send").set("Origin", "https://evil.example").send({ phone });
    expect(evil.status).toBe(403);
    expect(evil.body.status_code).toBe(10007);
    const sameSite = await t
      .http()
      .post(api("/api/v3/user/delete_account"))
      .set("Cookie", alice.cookie)
      .set("Sec-Fetch-Site", "same-site")
      .send({});
    expect(sameSite.body.status_code).toBe(10007);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: alice.userId } })).deleteRequestedAt).toBeNull();
    // this site's own pages, and clients that are not browser pages, are served
    const own = await t
      .http()
      .post(api("/api/v2/menu/create"))
      .set("Cookie", alice.cookie)
      .set("Origin", "http://127.0.0.1")
      .set("Host", "127.0.0.1")
      .set("Sec-Fetch-Site", "same-origin")
      .send({ menuName: `own${Date.now() % 1000}` });
    expect(own.body.status_code).toBe(1);
    const reads = await t
      .http()
      .get(api("/api/v1/user/info"))
      .set("Cookie", alice.cookie)
      .set("Origin", "https://evil.example");
    expect(reads.body.status_code).toBe(1);
  });

  it("personal JSON is never cached", async () => {
    const res = await t.http().get(api("/api/v1/user/info")).set("Cookie", alice.cookie);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("no absolute server path in dictation/configuration or a failed task's message", async () => {
    await t.db.workerHeartbeat.create({
      data: {
        workerId: `test-${Date.now()}`,
        hostname: "h",
        pid: 1,
        engines: [
          { language: "zh", engine: "whisper", available: false, problem: "model-missing" },
          { language: "en", engine: "moonshine", available: true },
          { language: "auto", engine: "moonshine", available: true },
        ],
      },
    });
    const config = await t.http().get(api("/api/v1/dictation/configuration")).set("Cookie", alice.cookie);
    const zh = config.body.data.languages.find((l: { value: string }) => l.value === "zh");
    expect(zh).toMatchObject({ available: false, missing: "本站暂未安装中文识别，请联系站点管理员" });
    expect(JSON.stringify(config.body)).not.toMatch(/\/(tmp|home|root|var|usr|data|work)\//);

    const rec = await seedRecord(t.db, { userId: alice.userId, fileStatus: FileStatus.Failed });
    await t.db.transcriptionTask.create({
      data: {
        fileId: rec.fileId,
        userId: alice.userId,
        status: FileStatus.Failed,
        errorCode: 70001,
        errorReason: "engine-unavailable/model-missing",
        errorMessage: "Whisper model not found at /srv/yuelu/data/models/ggml-base.bin",
      },
    });
    const progress = await t
      .http()
      .get(api(`/api/v1/dictation/progress/get_progress?fileIds=${rec.fileId}`))
      .set("Cookie", alice.cookie);
    expect(progress.body.data[0].errorMsg).toContain("语音识别");
    expect(JSON.stringify(progress.body)).not.toContain("/srv/");
  });
});

describe("lockout abuse", () => {
  let p: TestApp;
  beforeAll(async () => {
    p = await createTestApp({ TRUST_PROXY_HOPS: "1" });
  });
  afterAll(async () => {
    await p?.close();
  });
  const from = (ip: string) => ({ "X-Forwarded-For": ip });

  it("ten wrong codes from one address refuse that address only; the owner still signs in", async () => {
    const phone = uniquePhone();
    await p.http().post("/account/api/sms/send").set(from("198.51.100.1")).send({ phone });
    const code = p.sms.lastCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 10; i++) {
      const res = await p
        .http()
        .post("/account/api/login")
        .set(from("198.51.100.66"))
        .send({ phone, password: `wrongpass${i}` });
      expect(res.body.status_code).toBe(10005);
    }
    const eleventh = await p.http().post("/account/api/login").set(from("198.51.100.66")).send({ phone, code: wrong });
    expect(eleventh.body.status_code).toBe(10003);
    // from the owner's address the right code works at once: no lockout of the phone
    const owner = await p.http().post("/account/api/login").set(from("198.51.100.1")).send({ phone, code });
    expect(owner.body.status_code).toBe(1);
  });

  it("failures from many addresses slow a phone's attempts down instead of locking it", async () => {
    const phone = uniquePhone();
    for (let i = 0; i < 12; i++) {
      await p
        .http()
        .post("/account/api/login")
        .set(from(`203.0.113.${i + 1}`))
        .send({ phone, password: `nope-${i}-xx` });
    }
    await p.http().post("/account/api/sms/send").set(from("198.51.100.2")).send({ phone });
    const started = Date.now();
    const owner = await p
      .http()
      .post("/account/api/login")
      .set(from("198.51.100.2"))
      .send({ phone, code: p.sms.lastCode(phone) });
    expect(owner.body.status_code).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // 12 failures: held 1 s, then let in
  });
});

describe("the rate limit protects the API, not the pages", () => {
  let r: TestApp;
  let web: string;
  beforeAll(async () => {
    web = await mkdtemp(path.join(tmpdir(), "yuelu-web-"));
    await writeFile(path.join(web, "index.html"), "<!doctype html><title>Yuelu</title><div id=root></div>");
    await writeFile(path.join(web, "app.js"), "console.log(1)");
    r = await createTestApp({ RATE_LIMIT_PER_MINUTE: "3", WEB_DIST: web });
  });
  afterAll(async () => {
    await r?.close();
    await rm(web, { recursive: true, force: true });
  });

  it("pages and assets are never answered with 10003; a limited page is a readable page", async () => {
    for (let i = 0; i < 4; i++) await r.http().get(api("/api/v1/user/check_login"));
    const limited = await r.http().get(api("/api/v1/user/check_login"));
    expect(limited.body.status_code).toBe(10003);
    for (let i = 0; i < 6; i++) {
      const page = await r.http().get("/audio-list").set("Accept", "text/html");
      expect(page.status).toBe(200);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
      const asset = await r.http().get("/app.js");
      expect(asset.status).toBe(200);
    }
    const login = await r.http().get("/account/login").set("Sec-Fetch-Mode", "navigate");
    expect(login.status).toBe(429);
    expect(login.headers["content-type"]).toContain("text/html");
    expect(login.text).toContain("<h1>");
  });
});

/** Sends raw bytes to the test app's server and answers what came back (for requests supertest cannot make). */
async function rawRequest(raw: string): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(raw));
    let answer = "";
    socket.on("data", (d) => {
      answer += d;
      if (answer.includes("\r\n\r\n") && /"data":null\}$/.test(answer)) socket.end();
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.setTimeout(5000, () => {
      socket.destroy();
      resolve(answer);
    });
  });
}
