import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
  bob = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const api = (path: string) => `/voice_yuelu${path}`;
const get = (path: string, who?: SignedIn) =>
  t
    .http()
    .get(api(path))
    .set("Cookie", who?.cookie ?? "");
const post = (path: string, who?: SignedIn) =>
  t
    .http()
    .post(api(path))
    .set("Cookie", who?.cookie ?? "");

describe("sign-in is required", () => {
  it.each([
    ["GET", "/api/v1/user/info"],
    ["POST", "/api/v1/user/update_info"],
    ["POST", "/api/v1/store/get_asset"],
    ["GET", "/api/v1/store/get_asset"],
    ["POST", "/notify/get_unread_size"],
    ["POST", "/api/v3/user/delete_account_status"],
    ["POST", "/api/v3/user/delete_account"],
    ["POST", "/api/v3/user/cancel_delete_account"],
    ["POST", "/api/v1/user/login/last_time"],
    ["POST", "/api/v1/update_info_collect"],
    ["GET", "/api/v2/menu/sound_list"],
  ])("%s %s without a session → 10001", async (method, path) => {
    const res = method === "GET" ? await get(path) : await post(path);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });
});

describe("GET /api/v1/user/info", () => {
  it("answers the spec's user info fields", async () => {
    const res = await get("/api/v1/user/info?timeStamp=123&source=0", alice).set("key", "anything").set("source", "0");
    expect(res.body.status_code).toBe(1);
    expect(res.body.status_msg).toBe("success");
    expect(res.body.data).toMatchObject({
      userId: alice.userId,
      nickName: `用户${alice.phone.slice(-4)}`,
      // a new account holds the 30-day welcome membership (onboarding.test.ts)
      isMember: true,
      infoCollectChannel: "",
      infoCollectIdentity: "",
      userPhoto: "",
      inviteCode: expect.stringMatching(/^[A-HJ-NP-Z2-9]{8}$/),
    });
    expect(res.body.data.memberEffectiveTime).toBeGreaterThan(Date.now() / 1000 + 29 * 86400);
    expect(res.body.data.phoneNumber).toBe(`${alice.phone.slice(0, 3)}****${alice.phone.slice(7)}`);
    for (const flag of ["received", "receiveSuccess", "blackProReceive"])
      expect(typeof res.body.data[flag]).toBe("boolean");
  });

  it("reports membership from memberEffectiveTime", async () => {
    const until = new Date(Date.now() + 86_400_000);
    await t.db.user.update({ where: { id: bob.userId }, data: { memberEffectiveTime: until } });
    const res = await get("/api/v1/user/info", bob);
    expect(res.body.data.isMember).toBe(true);
    expect(res.body.data.memberEffectiveTime).toBe(Math.floor(until.getTime() / 1000));
    await t.db.user.update({ where: { id: bob.userId }, data: { memberEffectiveTime: null } });
  });
});

describe("POST /api/v1/user/update_info", () => {
  it("renames the user and keeps HTML as plain text", async () => {
    const res = await post("/api/v1/user/update_info", alice).send({ nickName: "<b>小明</b>" });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.nickName).toBe("<b>小明</b>");
    expect(res.headers["content-type"]).toContain("application/json");
  });

  it.each([
    [{ nickName: "" }, "nickName"],
    [{ nickName: "x".repeat(21) }, "nickName"],
    [{ nickName: 42 }, "nickName"],
    [{ userPhoto: "javascript:alert(1)" }, "userPhoto"],
    [{ giftsShown: ["nope"] }, "giftsShown"],
  ])("refuses bad input %# with 10002 naming the field", async (body, field) => {
    const res = await post("/api/v1/user/update_info", alice).send(body);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });

  it("takes parameters from the query string too", async () => {
    const res = await post("/api/v1/user/update_info?nickName=QueryName", alice);
    expect(res.body.data.nickName).toBe("QueryName");
  });
});

describe("storage info and assets", () => {
  it("is zero for anonymous visitors", async () => {
    const res = await get("/api/v1/user/storage_info?source=0");
    expect(res.body).toMatchObject({
      status_code: 1,
      data: { timeUsedToday: 0, timeLimitToday: 0, timeUsed: 0, timeLimit: 0, auth: 0 },
    });
  });

  it("sums valid time cards and what was drawn from them; expired cards do not count", async () => {
    const year = new Date(Date.now() + 365 * 86_400_000);
    await t.db.timeCard.createMany({
      data: [
        { userId: alice.userId, seconds: 3600, remaining: 1800, expiresAt: year, source: "purchase", refId: "t1" },
        { userId: alice.userId, seconds: 7200, remaining: 7200, expiresAt: year, source: "gift", refId: "t2" },
        {
          userId: alice.userId,
          seconds: 9999,
          remaining: 9999,
          expiresAt: new Date(Date.now() - 1000),
          source: "gift",
          refId: "t3",
        },
      ],
    });
    const res = await get(`/api/v1/user/storage_info?userId=${alice.userId}&source=0`, alice);
    // + the 3-hour welcome card; alice holds the welcome membership, so the member cap and auth 1
    expect(res.body.data).toMatchObject({
      timeLimit: 10800 + 10800,
      timeUsed: 1800,
      timeUsedToday: 0,
      timeLimitToday: 86400,
      auth: 1,
    });
    const assets = await post("/api/v1/store/get_asset", alice);
    expect(assets.body.data).toEqual({ allTimeCard: 9000 + 10800, allCoinNumber: 0 });
  });

  it("does not show another user's storage through userId", async () => {
    const res = await get(`/api/v1/user/storage_info?userId=${alice.userId}`, bob);
    expect(res.body.data.timeLimit).toBe(0);
  });

  it("answers 10002 for a non-numeric userId", async () => {
    const res = await get("/api/v1/user/storage_info?userId=abc", alice);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("userId");
  });
});

describe("unread size", () => {
  it("counts the welcome message (sent at sign-up) and a broadcast until they are read", async () => {
    const broadcast = await t.db.notification.create({
      data: { userId: null, notifyTitle: "公告", notifyText: "x", senderName: "悦录" },
    });
    const res = await post("/notify/get_unread_size", bob);
    expect(res.body).toMatchObject({ status_code: 1, data: { unreadSize: 2 } });
    await t.db.notificationRead.create({ data: { userId: bob.userId, notifyId: broadcast.notifyId } });
    expect((await post("/notify/get_unread_size", bob)).body.data.unreadSize).toBe(1);
    // Another user's read state is their own.
    expect((await post("/notify/get_unread_size", alice)).body.data.unreadSize).toBe(2);
  });

  it("counts messages addressed to the user, not those addressed to others", async () => {
    const before = (await post("/notify/get_unread_size", bob)).body.data.unreadSize;
    await t.db.notification.create({
      data: { userId: alice.userId, notifyTitle: "t", notifyText: "x", senderName: "s" },
    });
    expect((await post("/notify/get_unread_size", alice)).body.data.unreadSize).toBe(3);
    expect((await post("/notify/get_unread_size", bob)).body.data.unreadSize).toBe(before);
  });
});

describe("account deletion", () => {
  it("status 0, then delete → 10006 everywhere but status/cancel, cancel → back to normal", async () => {
    const carol = await signIn(t);
    expect((await post("/api/v3/user/delete_account_status", carol)).body.data.status).toBe(0);

    const del = await post("/api/v3/user/delete_account", carol);
    expect(del.body.status_code).toBe(1);
    expect(del.body.data.status).toBe(1);
    expect(del.body.data.purgeTime - del.body.data.deleteTime).toBe(7 * 86400);

    const info = await get("/api/v1/user/info", carol);
    expect(info.body.status_code).toBe(10006);
    expect((await post("/api/v3/user/delete_account", carol)).body.status_code).toBe(10006);
    expect((await get("/api/v1/user/check_login", carol)).body.data.login).toBe(false);
    expect((await post("/api/v3/user/delete_account_status", carol)).body.data.status).toBe(1);

    const cancel = await post("/api/v3/user/cancel_delete_account", carol);
    expect(cancel.body).toMatchObject({ status_code: 1, data: { status: 0 } });
    expect((await get("/api/v1/user/info", carol)).body.status_code).toBe(1);
  });

  it("after the grace period the account is purged and the phone starts afresh", async () => {
    const dave = await signIn(t);
    await post("/api/v3/user/delete_account", dave);
    // Personal data that must go with the account: a record with its stored file.
    const { Readable } = await import("node:stream");
    await t.files.put(`media/${dave.userId}/purge-me.wav`, Readable.from([Buffer.from("RIFF....WAVE")]));
    await t.db.audioRecord.create({
      data: {
        userId: dave.userId,
        fileName: "私人录音.wav",
        format: "wav",
        fileSize: 12n,
        timeLen: 1,
        storageKey: `media/${dave.userId}/purge-me.wav`,
      },
    });
    // …a voice of theirs with its sample and preview, and a converted song with its three files
    const voiceFiles = ["sample.wav", "preview.mp3", "song.wav", "result.mp3", "vocals.mp3"].map(
      (name) => `voice/${dave.userId}/purge/${name}`,
    );
    for (const key of voiceFiles) await t.files.put(key, Readable.from([Buffer.from("ID3....")]));
    await t.db.userVoice.create({
      data: { userId: dave.userId, name: "我的声音", sourceKey: voiceFiles[0]!, previewKey: voiceFiles[1]!, status: 2 },
    });
    await t.db.voiceWork.create({
      data: {
        userId: dave.userId,
        kind: "convert",
        title: "私人歌曲",
        voiceName: "我的声音",
        settings: { semitones: 2 },
        inputKey: voiceFiles[2]!,
        outputKey: voiceFiles[3]!,
        vocalsKey: voiceFiles[4]!,
        status: 2,
      },
    });
    await t.db.user.update({
      where: { id: dave.userId },
      data: { deleteRequestedAt: new Date(Date.now() - 8 * 86_400_000) },
    });
    await t.limiter.reset(`sms:phone:${dave.phone}`); // the one-SMS-a-minute limit is not under test here
    const again = await signIn(t, dave.phone);
    expect(again.userId).not.toBe(dave.userId);
    expect((await get("/api/v1/user/info", dave)).body.status_code).toBe(10001);
    const old = await t.db.user.findUniqueOrThrow({ where: { id: dave.userId } });
    expect(old.phone).toBeNull();
    expect(old.deletedAt).not.toBeNull();
    expect(await t.db.audioRecord.count({ where: { userId: dave.userId } })).toBe(0);
    expect(await t.files.size(`media/${dave.userId}/purge-me.wav`)).toBeNull();
    expect(await t.db.userVoice.count({ where: { userId: dave.userId } })).toBe(0);
    expect(await t.db.voiceWork.count({ where: { userId: dave.userId } })).toBe(0);
    for (const key of voiceFiles) expect(await t.files.size(key)).toBeNull();
  });
});

describe("check_login and last login", () => {
  it("check_login says whether the session is valid", async () => {
    expect((await get("/api/v1/user/check_login")).body).toMatchObject({ status_code: 1, data: { login: false } });
    expect((await get("/api/v1/user/check_login", alice)).body.data.login).toBe(true);
  });

  it("login/last_time answers the previous visit and records this one", async () => {
    const first = await post("/api/v1/user/login/last_time?source=0", bob);
    expect(first.body).toMatchObject({ status_code: 1, data: { lastLoginTime: 0 } });
    const second = await post("/api/v1/user/login/last_time", bob).send({ source: 0 });
    expect(second.body.data.lastLoginTime).toBeGreaterThan(Date.now() / 1000 - 60);
  });
});

describe("virtual_login", () => {
  it("registers an anonymous visitor's temp code once", async () => {
    const code = `tmp_${Date.now()}abc`;
    const first = await get(`/api/v3/user/virtual_login?tempCode=${code}`);
    expect(first.body).toMatchObject({ status_code: 1, data: { tempCode: code, firstSeen: true } });
    const second = await get(`/api/v3/user/virtual_login?tempCode=${code}`);
    expect(second.body.data.firstSeen).toBe(false);
    expect(await t.db.virtualVisitor.count({ where: { tempCode: code } })).toBe(1);
  });

  it.each(["", "short", "has space in it", "x".repeat(65), "'; DROP TABLE users; --"])(
    "refuses tempCode %j with 10002",
    async (code) => {
      const res = await t.http().get(api("/api/v3/user/virtual_login")).query({ tempCode: code });
      expect(res.body.status_code).toBe(10002);
      expect(res.body.status_msg).toContain("tempCode");
    },
  );
});

describe("survey", () => {
  it("lists identities and channels in the request's language", async () => {
    const zh = await get("/api/v1/info_collect");
    expect(zh.body.data.identityList.map((o: { name: string }) => o.name)).toContain("学生");
    expect(zh.body.data.channelList.length).toBeGreaterThan(2);
    const en = await get("/api/v1/info_collect?lang=en");
    expect(en.body.data.identityList.map((o: { name: string }) => o.name)).toContain("Student");
    expect(en.body.data.identityList[0].value).toBe(zh.body.data.identityList[0].value);
  });

  it("stores the identity, then the channel; 'Skip' is accepted", async () => {
    const erin = await signIn(t);
    expect((await post("/api/v1/update_info_collect", erin).send({ identity: "学生" })).body.status_code).toBe(1);
    let info = (await get("/api/v1/user/info", erin)).body.data;
    expect(info).toMatchObject({ infoCollectIdentity: "学生", infoCollectChannel: "" });
    await post("/api/v1/update_info_collect", erin).send({ channel: "Skip" });
    info = (await get("/api/v1/user/info", erin)).body.data;
    expect(info).toMatchObject({ infoCollectIdentity: "学生", infoCollectChannel: "Skip" });
  });

  it("refuses an empty body and unknown options with 10002", async () => {
    expect((await post("/api/v1/update_info_collect", alice).send({})).body.status_code).toBe(10002);
    const res = await post("/api/v1/update_info_collect", alice).send({ identity: "<img src=x>" });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("identity");
  });
});

describe("menu (folder) list", () => {
  it("lists only the caller's folders, menuId as a string", async () => {
    await t.db.folder.create({ data: { userId: alice.userId, menuName: "会议" } });
    await t.db.folder.create({ data: { userId: bob.userId, menuName: "Bob's" } });
    const res = await get("/api/v2/menu/sound_list?source=0", alice);
    expect(res.body.status_code).toBe(1);
    expect(res.body.data).toEqual([{ menuId: expect.any(String), menuName: "会议" }]);
  });
});

describe("public content", () => {
  it("banner/get_banner lists the seeded banner", async () => {
    const res = await get("/banner/get_banner?source=0");
    const seeded = res.body.data.find((b: { id: number }) => b.id === 1);
    expect(seeded).toMatchObject({ id: 1, image: expect.any(String), link: expect.any(String) });
  });

  it("get_link lists type 1 links in the request's language", async () => {
    const res = await get("/api/v1/index/link/get_link?type=1&lang=en");
    expect(res.body.data.map((l: { name: string }) => l.name)).toContain("Privacy policy");
    expect((await get("/api/v1/index/link/get_link?type=abc")).body.status_code).toBe(10002);
  });

  it("get_limit reports no offer until an operator enables one", async () => {
    expect((await get("/api/v1/limit/time/get_limit")).body.data).toMatchObject({ enabled: false, remaining: 0 });
    const end = Math.floor(Date.now() / 1000) + 3600;
    await t.db.appSetting.update({
      where: { key: "limited_offer" },
      data: { value: { enabled: true, goodsId: 9, endTime: end, title: "限时", titleEn: "Limited" } },
    });
    const res = await get("/api/v1/limit/time/get_limit?lang=en");
    expect(res.body.data).toMatchObject({ enabled: true, goodsId: 9, endTime: end, title: "Limited" });
    expect(res.body.data.remaining).toBeGreaterThan(3500);
  });

  it("activity list answers the running activities", async () => {
    const res = await get("/api/v1/activity/list");
    expect(res.body).toMatchObject({ status_code: 1, data: [] });
  });
});

describe("API core", () => {
  it("answers an unknown API path with HTTP 404 and the envelope naming the URL", async () => {
    const res = await get("/api/v9/nothing");
    expect(res.status).toBe(404);
    expect(res.body.status_msg).toContain("/voice_yuelu/api/v9/nothing");
  });

  it("gives every response a request id, echoing a sane incoming one", async () => {
    const res = await get("/api/v1/user/check_login").set("x-request-id", "abc-12345678");
    expect(res.headers["x-request-id"]).toBe("abc-12345678");
    const fresh = await get("/api/v1/user/check_login");
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("serves health, readiness and the OpenAPI document", async () => {
    expect((await t.http().get("/healthz")).body.status).toBe("ok");
    const ready = await t.http().get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.checks.database).toBe("ok");
    const doc = await t.http().get("/voice_yuelu/docs/json");
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toContain("/voice_yuelu/api/v1/user/info");
    expect(Object.keys(doc.body.paths)).toContain("/account/api/login");
    const ui = await t.http().get("/voice_yuelu/docs/");
    expect(ui.status).toBe(200);
  });

  it("refuses a body over the limit with 413", async () => {
    const res = await post("/api/v1/user/update_info", alice).send({ nickName: "x".repeat(2 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });
});

describe("global rate limit", () => {
  it("answers 429 with 10003 past RATE_LIMIT_PER_MINUTE", async () => {
    const limited = await createTestApp({ RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 7; i++) codes.push((await limited.http().get(api("/api/v1/user/check_login"))).status);
      expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(codes[5]).toBe(429);
      const res = await limited.http().get(api("/api/v1/user/check_login"));
      expect(res.body.status_code).toBe(10003);
      expect((await limited.http().get("/healthz")).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
