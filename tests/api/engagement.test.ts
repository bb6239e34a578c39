import { createGiftCodes, receiveReward, taskList } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, devSession, domainAt, type SignedIn, type TestApp, uniquePhone } from "../helpers/app.ts";
import { seedUser } from "../helpers/factories.ts";

/**
 * Beans and engagement (docs/engagement.md): the ledger, tasks, gift codes, the bean shop and the
 * message centre — each exactly-once under parallel requests, and the ledger always equal to the balance.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  // every user this file touched: the cached balance is the ledger's sum, and never negative
  const users = await t.db.user.findMany({ select: { id: true, beanBalance: true } });
  for (const u of users) {
    const sum = await t.db.beanLedger.aggregate({ where: { userId: u.id }, _sum: { amount: true } });
    expect(sum._sum.amount ?? 0).toBe(u.beanBalance);
    expect(u.beanBalance).toBeGreaterThanOrEqual(0);
  }
  await t?.close();
});

const api = (p: string) => `/voice_yuelu${p}`;
/** A new signed-in user (dev-login: this file signs up dozens, more than the SMS limits allow from one address). */
const signIn = (app: TestApp) => devSession(app, uniquePhone());
const get = (who: SignedIn, p: string) => t.http().get(api(p)).set("Cookie", who.cookie);
const post = (who: SignedIn, p: string, body: object = {}) =>
  t.http().post(api(p)).set("Cookie", who.cookie).send(body);

async function balance(userId: number) {
  return (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).beanBalance;
}

/** Gives the user beans the way a check-in would: one ledger row and the balance, together. */
async function giveBeans(userId: number, amount: number, ref: string) {
  const { grantBeans } = await import("@yuelu/domain");
  await t.db.$transaction((tx) => grantBeans(tx, userId, amount, "seed", ref));
}

describe("tasks", () => {
  it("lists two groups (daily first, challenges second) in the request's language", async () => {
    const who = await signIn(t);
    const res = await get(who, "/api/v1/challenge/task_list?lang=en");
    expect(res.body.status_code).toBe(1);
    const [daily, challenges] = res.body.data;
    expect(daily.every((task: { challengeType: number }) => task.challengeType === 0)).toBe(true);
    expect(challenges.every((task: { challengeType: number }) => task.challengeType === 1)).toBe(true);
    expect(daily[0]).toMatchObject({
      challengeId: 1,
      challengeName: "Daily check-in",
      progressStatus: 0,
      progressAmount: 0,
    });
    expect(challenges.map((c: { challengeId: number }) => c.challengeId)).toContain(105);
  });

  it("check-in advances its task; claiming grants once, 20 parallel claims included", async () => {
    const who = await signIn(t);
    const before = await balance(who.userId);
    expect((await post(who, "/api/v1/store/sign")).body.data.signCheck).toBe(1);
    const afterSign = await balance(who.userId);
    const [daily] = (await get(who, "/api/v1/challenge/task_list")).body.data;
    expect(daily.find((task: { challengeId: number }) => task.challengeId === 1)).toMatchObject({
      progressAmount: 1,
      progressStatus: 1,
    });
    const claims = await Promise.all(
      Array.from({ length: 20 }, () => post(who, "/api/v1/challenge/receive_reward", { challengeId: 1 })),
    );
    const granted = claims.filter((c) => c.body.data?.length === 1);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.body.data[0]).toEqual({ type: 0, num: 10, amount: 1 });
    expect(claims.filter((c) => c.body.status_code === 1 && c.body.data.length === 0)).toHaveLength(19);
    expect(await balance(who.userId)).toBe(afterSign + 10);
    expect(afterSign).toBeGreaterThanOrEqual(before);
    const [again] = (await get(who, "/api/v1/challenge/task_list")).body.data;
    expect(again.find((task: { challengeId: number }) => task.challengeId === 1).progressStatus).toBe(2);
  });

  it("an unfinished task gives an empty list ('no reward to claim'); an unknown one is 10002", async () => {
    const who = await signIn(t);
    const none = await post(who, "/api/v1/challenge/receive_reward", { challengeId: 2 });
    expect(none.body).toMatchObject({ status_code: 1, data: [] });
    expect((await post(who, "/api/v1/challenge/receive_reward", { challengeId: 9999 })).body.status_code).toBe(10002);
    expect((await post(who, "/api/v1/challenge/receive_reward", { challengeId: "x" })).body.status_code).toBe(10002);
  });

  it("daily tasks start again at 00:00 in BUSINESS_TZ; challenges count once ever", async () => {
    const user = await seedUser(t.db);
    const before = domainAt(t, "2031-05-01T15:59:00Z"); // 23:59 in Shanghai
    const after = domainAt(t, "2031-05-01T16:01:00Z"); // 00:01 the next day there
    const { advanceTasks } = await import("@yuelu/domain");
    await t.db.$transaction((tx) => advanceTasks(tx, user.id, ["checkin", "checkin_days"], 1, "2031-05-01"));
    const [dailyBefore, challengesBefore] = await taskList(before, user.id, "zh");
    expect(dailyBefore.find((x) => x.challengeId === 1)?.progressStatus).toBe(1);
    expect((await receiveReward(before, user.id, 1)).length).toBe(1);
    const [dailyAfter, challengesAfter] = await taskList(after, user.id, "zh");
    expect(dailyAfter.find((x) => x.challengeId === 1)).toMatchObject({ progressAmount: 0, progressStatus: 0 });
    // the 7-day challenge keeps its progress across days
    expect(challengesBefore.find((x) => x.challengeId === 104)?.progressAmount).toBe(1);
    expect(challengesAfter.find((x) => x.challengeId === 104)?.progressAmount).toBe(1);
    // yesterday's reward cannot be claimed again today, and today's is not claimable before it is earned
    expect(await receiveReward(after, user.id, 1)).toEqual([]);
  });

  it("the survey answered (not skipped) completes its challenge", async () => {
    const who = await signIn(t);
    await post(who, "/api/v1/update_info_collect", { identity: "学生", channel: "Skip" });
    let [, challenges] = (await get(who, "/api/v1/challenge/task_list")).body.data;
    expect(challenges.find((c: { challengeId: number }) => c.challengeId === 101).progressStatus).toBe(0);
    await post(who, "/api/v1/update_info_collect", { channel: "Search engine" });
    [, challenges] = (await get(who, "/api/v1/challenge/task_list")).body.data;
    expect(challenges.find((c: { challengeId: number }) => c.challengeId === 101).progressStatus).toBe(1);
  });
});

describe("gift codes", () => {
  it("redeems beans, case-insensitively, once per user; 20 parallel tries by one user grant once", async () => {
    const [code] = await createGiftCodes(t, {
      count: 1,
      rewardType: 0,
      rewardNumber: 40,
      maxRedemptions: 5,
      batch: "t",
    });
    const who = await signIn(t);
    const before = await balance(who.userId);
    const tries = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(who, "/api/v1/gift_pack/gift_code_exchange", { packCode: code!.toLowerCase() }),
      ),
    );
    expect(tries.filter((r) => r.body.status_code === 1)).toHaveLength(1);
    // the rest: already redeemed, or (more than 10 in flight at once: guesses are counted first) refused unread
    expect(tries.filter((r) => r.body.status_code === 60009).length).toBeGreaterThanOrEqual(9);
    expect(tries.every((r) => [1, 60009, 10003].includes(r.body.status_code))).toBe(true);
    expect(tries.find((r) => r.body.status_code === 1)!.body.data).toEqual({ rewardType: 0, rewardNumber: 40 });
    expect(await balance(who.userId)).toBe(before + 40);
  });

  it("20 users against a limit of 5: exactly 5 get it", async () => {
    const [code] = await createGiftCodes(t, {
      count: 1,
      rewardType: 1,
      rewardNumber: 1800,
      maxRedemptions: 5,
      batch: "t",
    });
    const users = await Promise.all(Array.from({ length: 20 }, () => signIn(t)));
    const tries = await Promise.all(
      users.map((u) => post(u, "/api/v1/gift_pack/gift_code_exchange", { packCode: code })),
    );
    expect(tries.filter((r) => r.body.status_code === 1)).toHaveLength(5);
    expect(tries.filter((r) => r.body.status_code === 60005)).toHaveLength(15);
    const gift = await t.db.giftCode.findUniqueOrThrow({ where: { packCode: code! } });
    expect(gift.redeemedCount).toBe(5);
    expect(await t.db.giftRedemption.count({ where: { giftCodeId: gift.id } })).toBe(5);
    expect(await t.db.timeCard.count({ where: { refId: `code:${gift.id}` } })).toBe(5);
  });

  it("membership days (types 101–199) extend the membership", async () => {
    const [code] = await createGiftCodes(t, {
      count: 1,
      rewardType: 101,
      rewardNumber: 7,
      maxRedemptions: 1,
      batch: "t",
    });
    const user = await seedUser(t.db);
    const { redeemGiftCode } = await import("@yuelu/domain");
    expect(await redeemGiftCode(t.domain, user.id, code!)).toEqual({ rewardType: 101, rewardNumber: 7 });
    const until = (await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).memberEffectiveTime!.getTime();
    expect(until - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
  });

  it.each([
    ["empty", "", "请填写兑换码"],
    ["short", "ABC", "请填写正确的兑换码"],
    ["long", "ABCDEFGHJ", "请填写正确的兑换码"],
    ["symbols", "ABCD-EF!", "请填写正确的兑换码"],
  ])("%s code → 10002 with the spec's message", async (_n, packCode, message) => {
    const who = await signIn(t);
    const res = await post(who, "/api/v1/gift_pack/gift_code_exchange", { packCode });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(message);
  });

  it("an expired or unknown code is 60004, and guessing is limited per user", async () => {
    const [code] = await createGiftCodes(t, {
      count: 1,
      rewardType: 0,
      rewardNumber: 5,
      maxRedemptions: 9,
      expiresAt: new Date(Date.now() - 1000),
      batch: "t",
    });
    const who = await signIn(t);
    expect((await post(who, "/api/v1/gift_pack/gift_code_exchange", { packCode: code })).body.status_code).toBe(60004);
    for (let i = 0; i < 9; i++) {
      const res = await post(who, "/api/v1/gift_pack/gift_code_exchange", { packCode: `ZZZZZZZ${i}` });
      expect(res.body.status_code).toBe(60004);
    }
    const limited = await post(who, "/api/v1/gift_pack/gift_code_exchange", { packCode: "ZZZZZZZZ" });
    expect(limited.body.status_code).toBe(10003);
  });
});

describe("the bean shop", () => {
  it("lists the goods; a redeem spends the exact price and grants a 3-month card", async () => {
    const list = await t.http().post(api("/api/v1/store/goods_list")).send({ page: 1, pageSize: 9999 });
    expect(list.body.data.total).toBeGreaterThan(0);
    const goods = list.body.data.list[0];
    const cost = goods.discount ? goods.exchangeCoin : goods.originalCoin;
    const who = await signIn(t);
    await giveBeans(who.userId, cost * 2, `shop-${who.userId}`);
    const before = await balance(who.userId);
    const res = await post(who, "/api/v1/store/purchase_goods", {
      goodsId: goods.goodsId,
      exchangeAmount: 2,
      coinNumber: cost * 2,
      userId: who.userId,
    });
    expect(res.body.data).toEqual({
      exchangeAmount: 2,
      signRewardType: 1,
      signRewardNumber: goods.duration * 2,
      balance: before - cost * 2,
    });
    const card = await t.db.timeCard.findFirstOrThrow({ where: { userId: who.userId, source: "redeem" } });
    expect(card.seconds).toBe(goods.duration * 2);
    const days = (card.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThanOrEqual(90);
    // and the message centre says so, once (the day's purchases notice)
    const messages = await t.db.notification.findMany({
      where: { userId: who.userId, sourceRef: { startsWith: "notice:purchase:" } },
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]!.notifyText).toContain(`已用 ${cost * 2} 悦豆兑换`);
    expect(messages[0]!.notifyTextEn).toMatch(/valid for 90 days/);
  });

  it("20 parallel redeems that together exceed the balance: each that passes is paid, none beyond it", async () => {
    const goods = await t.db.shopGoods.findFirstOrThrow({ where: { enabled: true }, orderBy: { sort: "asc" } });
    const cost = goods.discount ? goods.exchangeCoin : goods.originalCoin;
    const who = await signIn(t);
    const start = await balance(who.userId);
    await giveBeans(who.userId, cost * 7 + Math.floor(cost / 2), `race-${who.userId}`);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        post(who, "/api/v1/store/purchase_goods", { goodsId: goods.goodsId, exchangeAmount: 1, coinNumber: cost }),
      ),
    );
    const ok = answers.filter((a) => a.body.status_code === 1);
    const poor = answers.filter((a) => a.body.status_code === 60001);
    const affordable = Math.floor((start + cost * 7 + Math.floor(cost / 2)) / cost);
    expect(ok).toHaveLength(affordable);
    expect(poor).toHaveLength(20 - affordable);
    expect(await t.db.timeCard.count({ where: { userId: who.userId, source: "redeem" } })).toBe(affordable);
    expect(await balance(who.userId)).toBe(start + cost * 7 + Math.floor(cost / 2) - affordable * cost);
  });

  it("refuses a stale price, another user's id, unknown goods and bad quantities", async () => {
    const goods = await t.db.shopGoods.findFirstOrThrow({ where: { enabled: true } });
    const who = await signIn(t);
    const stale = await post(who, "/api/v1/store/purchase_goods", {
      goodsId: goods.goodsId,
      exchangeAmount: 1,
      coinNumber: 1,
    });
    expect(stale.body.status_code).toBe(10002);
    expect(stale.body.status_msg).toContain("coinNumber");
    const other = await post(who, "/api/v1/store/purchase_goods", {
      goodsId: goods.goodsId,
      exchangeAmount: 1,
      coinNumber: goods.originalCoin,
      userId: who.userId + 100_000,
    });
    expect(other.body.status_code).toBe(10002);
    expect(
      (await post(who, "/api/v1/store/purchase_goods", { goodsId: 99999, exchangeAmount: 1, coinNumber: 1 })).body
        .status_code,
    ).toBe(60002);
    for (const exchangeAmount of [0, -1, 1.5, "x", 10_000]) {
      const res = await post(who, "/api/v1/store/purchase_goods", {
        goodsId: goods.goodsId,
        exchangeAmount,
        coinNumber: 1,
      });
      expect(res.body.status_code).toBe(10002);
    }
  });

  it("bean_detail pages the ledger with reasons and the balance after each row", async () => {
    const who = await signIn(t);
    await post(who, "/api/v1/store/sign");
    const res = await post(who, "/api/v1/store/bean_detail?lang=en", { page: 1, pageSize: 10 });
    expect(res.body.data.total).toBeGreaterThanOrEqual(1);
    expect(res.body.data.list[0]).toMatchObject({ reason: "checkin", reasonName: "Daily check-in" });
    expect(res.body.data.list[0].balanceAfter).toBe(await balance(who.userId));
  });
});

describe("the message centre", () => {
  it("lists the user's messages and broadcasts, filters unread, marks read; nobody else's", async () => {
    const who = await signIn(t);
    const other = await signIn(t);
    const mine = await t.db.notification.create({
      data: {
        userId: who.userId,
        notifyTitle: "标题",
        notifyText: "内容",
        notifyTitleEn: "Title",
        notifyTextEn: "Text",
        senderName: "悦录",
      },
    });
    const all = (await post(who, "/notify/get_list?lang=en", { page: 1, pageSize: 9999, readSign: -1 })).body.data;
    expect(all[0]).toMatchObject({ notifyId: mine.notifyId, notifyTitle: "Title", notifyRead: 0, senderName: "Yuelu" });
    expect(all[0].sendTimeStr).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(all.some((m: { notifyTitle: string }) => m.notifyTitle === "Welcome to Yuelu")).toBe(true); // sent at sign-up
    // another user cannot read it, nor mark it
    expect((await post(other, "/notify/read_msg", { notifyId: mine.notifyId })).body.status_code).toBe(30001);
    const read = await post(who, "/notify/read_msg", { notifyId: mine.notifyId });
    expect(read.body.data.read).toBe(1);
    expect((await post(who, "/notify/read_msg", { notifyId: mine.notifyId })).body.data.read).toBe(0);
    const unread = (await post(who, "/notify/get_list", { page: 1, pageSize: 9999, readSign: 0 })).body.data;
    expect(unread.some((m: { notifyId: number }) => m.notifyId === mine.notifyId)).toBe(false);
    const everything = await post(who, "/notify/read_all_msg");
    expect(everything.body.data.unreadSize).toBe(0);
    expect((await post(who, "/notify/get_unread_size")).body.data.unreadSize).toBe(0);
    expect((await post(other, "/notify/get_unread_size")).body.data.unreadSize).toBeGreaterThan(0);
  });
});

describe("feedback", () => {
  it("lists the category tree and stores a report with screenshots (images only)", async () => {
    const cats = (await t.http().get(api("/feedback/get_question_category?lang=en"))).body.data;
    expect(cats.filter((c: { level: number }) => c.level === 0).length).toBeGreaterThan(0);
    const child = cats.find((c: { level: number }) => c.level === 1);
    expect(cats.some((c: { id: number }) => c.id === child.parentId)).toBe(true);

    const who = await signIn(t);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const ok = await t
      .http()
      .post(api("/feedback/add"))
      .set("Cookie", who.cookie)
      .field("categoryId", String(child.id))
      .field("content", "上传总是失败")
      .field("contact", "wx: abc")
      .attach("images", png, "a.png");
    expect(ok.body).toMatchObject({ status_code: 1, data: { images: 1 } });
    const row = await t.db.feedback.findUniqueOrThrow({ where: { id: ok.body.data.id } });
    expect(row).toMatchObject({ userId: who.userId, content: "上传总是失败", contact: "wx: abc" });
    expect(await t.files.size(row.images[0]!)).toBe(png.length);

    const exe = await t
      .http()
      .post(api("/feedback/add"))
      .set("Cookie", who.cookie)
      .field("categoryId", String(child.id))
      .field("content", "x")
      .attach("images", Buffer.from("MZ\x90\x00not an image at all".repeat(20)), "shot.png");
    expect(exe.body.status_code).toBe(10002);
    expect(exe.body.status_msg).toContain("images");
    const four = t
      .http()
      .post(api("/feedback/add"))
      .set("Cookie", who.cookie)
      .field("categoryId", String(child.id))
      .field("content", "x");
    for (let i = 0; i < 4; i++) four.attach("images", png, `${i}.png`);
    expect((await four).body.status_code).toBe(10002);
    expect((await post(who, "/feedback/add", { categoryId: 99999, content: "x" })).body.status_code).toBe(10002);
    expect((await post(who, "/feedback/add", { categoryId: child.id, content: "" })).body.status_code).toBe(10002);
  });
});
