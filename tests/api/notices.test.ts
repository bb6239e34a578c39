import { FileStatus, type Message } from "@yuelu/contracts";
import { completeTask, failTask, grantBeans, sendNotice } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, domainAt, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedRecord, seedUser } from "../helpers/factories.ts";

/**
 * Issue 43: fewer, truer messages. Routine notices (a finished transcription, a purchase) are one
 * message per user, kind and business day, events listed inside; parallel events make exactly one
 * message; each event dates it and makes it unread again; failures stay messages of their own; the
 * welcome is dated at the sign-up. Real PostgreSQL.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ BUSINESS_TZ: "Asia/Shanghai" });
});
afterAll(async () => {
  await t?.close();
});

/** A transcription task already running (as a worker's claim leaves it), for a record named `name`. */
async function runningTask(userId: number, name: string) {
  const record = await seedRecord(t.db, { userId, fileName: name, fileStatus: FileStatus.Transcribing, timeLen: 30 });
  const task = await t.db.transcriptionTask.create({
    data: { fileId: record.fileId, userId, status: FileStatus.Transcribing, language: "zh", speakerCount: 0 },
  });
  return task.id;
}

const list = async (who: SignedIn, lang = "zh", readSign = -1) => {
  const res = await t
    .http()
    .post(`/voice_yuelu/notify/get_list?lang=${lang}`)
    .set("Cookie", who.cookie)
    .send({ page: 1, pageSize: 9999, readSign });
  expect(res.body.status_code).toBe(1);
  return res.body.data as Message[];
};

const epoch = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

describe("routine notices", () => {
  it("12 transcriptions finishing at once make one message listing all 12, dated at the last", async () => {
    const user = await seedUser(t.db);
    const names = Array.from({ length: 12 }, (_, i) => `会议-${i + 1}`);
    const tasks = await Promise.all(names.map((name) => runningTask(user.id, name)));
    // 10:00–10:11 Shanghai time on one business day, all committing together
    const at = (i: number) => `2030-03-05T02:${String(i).padStart(2, "0")}:00Z`;
    const done = await Promise.all(
      tasks.map((taskId, i) => completeTask(domainAt(t, at(i)), taskId, { segments: [], language: "zh" })),
    );
    expect(done).toEqual(Array(12).fill(true));

    const rows = await t.db.notification.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    const [row] = rows;
    expect(row!.sourceRef).toBe("notice:transcribed:2030-03-05");
    expect(row!.sendTime.toISOString()).toBe(new Date(at(11)).toISOString());
    expect(row!.notifyTitle).toBe("转写完成");
    const lines = row!.notifyText.split("\n");
    expect(lines[0]).toBe("今天已有 12 条记录转写完成，可在“我的记录”中查看和编辑：");
    // newest first, one line each
    expect(lines.slice(1)).toEqual([...names].reverse().map((n) => `「${n}」`));
    expect(row!.notifyTextEn.split("\n")[0]).toBe(
      "12 recordings were transcribed today: open them from My records to read and edit them.",
    );
  });

  it("the list answers the items (additive), unread again and re-dated at each new event; another day is another message", async () => {
    const who = await signIn(t);
    const day = (h: number) => `2030-04-01T${String(h).padStart(2, "0")}:00:00Z`; // 2030-04-01, Shanghai 08:00–
    const first = await runningTask(who.userId, "first.mp3");
    expect(await completeTask(domainAt(t, day(0)), first, { segments: [], language: "zh" })).toBe(true);
    let [notice] = (await list(who)).filter((m) => m.items.length > 0);
    // one event: the event's own words
    expect(notice).toMatchObject({
      notifyTitle: "转写完成",
      notifyText: "「first.mp3」已转写完成，可在“我的记录”中查看和编辑。",
      notifyRead: 0,
      sendTime: epoch(day(0)),
      items: [{ title: "转写完成", text: "「first.mp3」", sendTime: epoch(day(0)) }],
    });
    // the spec's fields, letter for letter, plus items
    expect(Object.keys(notice!).sort()).toEqual(
      ["items", "notifyId", "notifyRead", "notifyText", "notifyTitle", "sendTime", "sendTimeStr", "senderName"].sort(),
    );
    const read = await t
      .http()
      .post("/voice_yuelu/notify/read_msg")
      .set("Cookie", who.cookie)
      .send({ notifyId: notice!.notifyId });
    expect(read.body.data.read).toBe(1);

    const second = await runningTask(who.userId, "second.mp3");
    expect(await completeTask(domainAt(t, day(5)), second, { segments: [], language: "zh" })).toBe(true);
    const unread = (await list(who, "en", 0)).filter((m) => m.items.length > 0);
    expect(unread).toHaveLength(1);
    expect(unread[0]).toMatchObject({
      notifyId: notice!.notifyId,
      notifyTitle: "Transcriptions finished",
      notifyRead: 0,
      sendTime: epoch(day(5)),
      items: [
        { title: "Transcription finished", text: "“second.mp3”", sendTime: epoch(day(5)) },
        { title: "Transcription finished", text: "“first.mp3”", sendTime: epoch(day(0)) },
      ],
    });
    expect(unread[0]!.sendTimeStr).toBe("2030-04-01 13:00:00");

    // 2030-04-01 17:00Z is already 04-02 in Shanghai: the next business day's own message
    const third = await runningTask(who.userId, "third.mp3");
    expect(await completeTask(domainAt(t, day(17)), third, { segments: [], language: "zh" })).toBe(true);
    [notice] = await list(who);
    expect(notice).toMatchObject({ notifyText: "「third.mp3」已转写完成，可在“我的记录”中查看和编辑。" });
    expect(
      await t.db.notification.count({
        where: { userId: who.userId, sourceRef: { startsWith: "notice:transcribed:" } },
      }),
    ).toBe(2);
  });

  it("an event listed already changes nothing (a payment reported twice is one line)", async () => {
    const user = await seedUser(t.db);
    const item = {
      ref: "order:T1",
      at: new Date("2030-05-01T03:00:00Z"),
      title: "时长卡已到账",
      titleEn: "Time card added",
      text: "您购买的「10 小时时长卡」已到账。",
      textEn: "Your 10-hour card has been added.",
    };
    const sent = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.db.$transaction((tx) => sendNotice(tx, user.id, "purchase", item, "Asia/Shanghai")),
      ),
    );
    expect(sent.filter(Boolean)).toHaveLength(1);
    const row = await t.db.notification.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.items).toHaveLength(1);
    expect(row.notifyTitle).toBe("时长卡已到账");
  });

  it("a failure is a message of its own, beside the day's notice", async () => {
    const user = await seedUser(t.db);
    const ctx = domainAt(t, "2030-06-01T04:00:00Z");
    const ok = await runningTask(user.id, "ok.mp3");
    const bad = await runningTask(user.id, "bad.mp3");
    await completeTask(ctx, ok, { segments: [], language: "zh" });
    await failTask(ctx, bad, { code: 40001, reason: "error" });
    const rows = await t.db.notification.findMany({ where: { userId: user.id }, orderBy: { notifyId: "asc" } });
    expect(rows.map((r) => r.notifyTitle)).toEqual(["转写完成", "转写失败"]);
    expect(rows[1]!.items).toBeNull();
  });

  it("8 parallel bean-shop redeems make one purchases notice with 8 receipts", async () => {
    const who = await signIn(t);
    const goods = await t.db.shopGoods.findFirstOrThrow({ where: { enabled: true }, orderBy: { sort: "asc" } });
    const cost = goods.discount ? goods.exchangeCoin : goods.originalCoin;
    await t.db.$transaction((tx) => grantBeans(tx, who.userId, cost * 8, "seed", `notices-${who.userId}`));
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t
          .http()
          .post("/voice_yuelu/api/v1/store/purchase_goods")
          .set("Cookie", who.cookie)
          .send({ goodsId: goods.goodsId, exchangeAmount: 1, coinNumber: cost }),
      ),
    );
    expect(answers.map((a) => a.body.status_code)).toEqual(Array(8).fill(1));
    const notices = (await list(who)).filter((m) => m.items.length > 0);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.notifyTitle).toBe("今日购买");
    expect(notices[0]!.items).toHaveLength(8);
    expect(notices[0]!.notifyText.split("\n")).toHaveLength(9);
    expect(notices[0]!.notifyText.split("\n")[0]).toBe("今天有 8 笔购买和兑换已到账：");
  });
});

describe("the welcome", () => {
  it("is one message, dated at the sign-up, never before it; no broadcast from before the account", async () => {
    const who = await signIn(t);
    const user = await t.db.user.findUniqueOrThrow({ where: { id: who.userId } });
    const messages = await list(who);
    expect(messages.map((m) => m.notifyTitle)).toEqual(["欢迎使用悦录"]);
    expect(messages[0]!.notifyText).toContain("新人礼包");
    expect(messages[0]!.sendTime).toBeGreaterThanOrEqual(Math.floor(user.createdAt.getTime() / 1000));
    expect(messages[0]!.items).toEqual([]);
    const en = await list(who, "en");
    expect(en[0]!.notifyTitle).toBe("Welcome to Yuelu");
    expect(en[0]!.notifyText).toContain("Your welcome gifts:");
  });
});
