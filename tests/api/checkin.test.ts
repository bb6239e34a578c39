import { signRewards } from "@yuelu/db/seed/catalogue";
import { businessMonth, sign, signInfo } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, domainAt, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const TZ = "Asia/Shanghai";
const DAY = 86400;
const api = (path: string) => `/voice_yuelu${path}`;
const signInfoOf = async (who: SignedIn) =>
  (await t.http().post(api("/api/v1/store/sign_info")).set("Cookie", who.cookie)).body;
const signToday = async (who: SignedIn) =>
  (await t.http().post(api("/api/v1/store/sign?timeStamp=1&source=0")).set("Cookie", who.cookie)).body;

/** A signed-in user without the welcome membership (new accounts hold one: see onboarding.test.ts). */
async function nonMember(): Promise<SignedIn> {
  const who = await signIn(t);
  await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: null } });
  return who;
}

async function balanceOf(userId: number) {
  const [user, ledger] = await Promise.all([
    t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { beanBalance: true } }),
    t.db.beanLedger.aggregate({ where: { userId }, _sum: { amount: true } }),
  ]);
  return { balance: user.beanBalance, ledgerSum: ledger._sum.amount ?? 0 };
}

/** `count` days of the current business month other than today, to pretend they were signed. */
function otherDaysThisMonth(count: number): string[] {
  const m = businessMonth(new Date(), TZ);
  const days: string[] = [];
  for (let d = 1; days.length < count; d++) {
    const day = `${m.first.slice(0, 8)}${String(d).padStart(2, "0")}`;
    if (day !== m.today) days.push(day);
  }
  return days;
}

describe("sign-in is required", () => {
  it.each([
    ["GET", "/api/v1/store/sign_info"],
    ["POST", "/api/v1/store/sign_info"],
    ["POST", "/api/v1/store/sign"],
  ])("%s %s without a session → 10001", async (method, path) => {
    const res = method === "GET" ? await t.http().get(api(path)) : await t.http().post(api(path));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });
});

describe("sign_info", () => {
  it("answers this month's calendar for a user who has not signed", async () => {
    const who = await signIn(t);
    const m = businessMonth(new Date(), TZ);
    for (const res of [
      await t.http().get(api("/api/v1/store/sign_info?timeStamp=1")).set("Cookie", who.cookie),
      await t.http().post(api("/api/v1/store/sign_info")).set("Cookie", who.cookie).send({ source: 0 }),
    ]) {
      expect(res.body.status_code).toBe(1);
      expect(res.body.data).toMatchObject({ allSignDay: 0, nowMonth: m.month, todaySign: false });
      expect(res.body.data.rewardContentList).toEqual(
        signRewards
          .filter((r) => r.day <= m.daysInMonth)
          .map(({ day, signRewardNumber, signRewardType, rewardPicPath }) => ({
            day,
            signRewardNumber,
            signRewardType,
            rewardPicPath,
          })),
      );
    }
    expect(m.month).toBe(Number(new Intl.DateTimeFormat("en", { timeZone: TZ, month: "numeric" }).format(new Date())));
  });

  it("lists as many days as the month has, in the business time zone", async () => {
    const who = await nonMember();
    const at = (iso: string) => signInfo(domainAt(t, new Date(iso)), who.userId);
    expect((await at("2030-02-10T04:00:00Z")).rewardContentList).toHaveLength(28);
    expect((await at("2028-02-10T04:00:00Z")).rewardContentList).toHaveLength(29);
    expect((await at("2030-04-10T04:00:00Z")).rewardContentList).toHaveLength(30);
    // 2030-01-31 16:00 UTC is already February 1st in Shanghai.
    const feb = await at("2030-01-31T16:00:00Z");
    expect(feb).toMatchObject({ nowMonth: 2 });
    expect(feb.rewardContentList).toHaveLength(28);
  });
});

describe("sign", () => {
  it("signs today once: the first reward in beans, then signCheck 2", async () => {
    const who = await nonMember();
    const m = businessMonth(new Date(), TZ);
    const first = await signToday(who);
    expect(first).toMatchObject({
      status_code: 1,
      data: { signCheck: 1, signRewardNumber: 10, signRewardType: 0, memberTimes: 1 },
    });
    expect(await balanceOf(who.userId)).toEqual({ balance: 10, ledgerSum: 10 });
    const ledger = await t.db.beanLedger.findMany({ where: { userId: who.userId } });
    expect(ledger).toEqual([
      expect.objectContaining({ amount: 10, reason: "checkin", refId: m.today, balanceAfter: 10 }),
    ]);
    const assets = await t.http().post(api("/api/v1/store/get_asset")).set("Cookie", who.cookie);
    expect(assets.body.data.allCoinNumber).toBe(10);
    expect((await signInfoOf(who)).data).toMatchObject({ allSignDay: 1, todaySign: true });

    const again = await signToday(who);
    expect(again).toMatchObject({
      status_code: 1,
      data: { signCheck: 2, signRewardNumber: 10, signRewardType: 0, memberTimes: 1 },
    });
    expect(await balanceOf(who.userId)).toEqual({ balance: 10, ledgerSum: 10 });
    expect(await t.db.signDay.count({ where: { userId: who.userId } })).toBe(1);
    expect((await signInfoOf(who)).data).toMatchObject({ allSignDay: 1, todaySign: true });
  });

  it("doubles the reward for members", async () => {
    const member = await signIn(t); // holds the 30-day welcome membership
    expect((await signToday(member)).data).toEqual({
      signCheck: 1,
      signRewardNumber: 10,
      signRewardType: 0,
      memberTimes: 2,
    });
    expect(await balanceOf(member.userId)).toEqual({ balance: 20, ledgerSum: 20 });
    expect((await signToday(member)).data).toMatchObject({ signCheck: 2, memberTimes: 2 });
  });

  it("an expired membership is no membership", async () => {
    const who = await signIn(t);
    await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: new Date(Date.now() - 1000) } });
    expect((await signToday(who)).data).toMatchObject({ signCheck: 1, memberTimes: 1 });
    expect((await balanceOf(who.userId)).balance).toBe(10);
  });

  it("rewards the day after the month's signed days; the 7th is a 30-minute card valid 90 days", async () => {
    const who = await nonMember();
    const m = businessMonth(new Date(), TZ);
    const days = otherDaysThisMonth(6);
    await t.db.signDay.createMany({
      data: days.map((day) => ({ userId: who.userId, day, signRewardNumber: 10, signRewardType: 0 })),
    });
    // Days of another month do not count.
    await t.db.signDay.create({
      data: { userId: who.userId, day: "2001-01-05", signRewardNumber: 10, signRewardType: 0 },
    });
    expect((await signInfoOf(who)).data).toMatchObject({ allSignDay: 6, todaySign: false });

    const res = await signToday(who);
    expect(res.data).toEqual({ signCheck: 1, signRewardNumber: 1800, signRewardType: 1, memberTimes: 1 });
    const card = await t.db.timeCard.findUniqueOrThrow({
      where: { userId_source_refId: { userId: who.userId, source: "checkin", refId: m.today } },
    });
    expect(card).toMatchObject({ seconds: 1800, remaining: 1800 });
    expect((card.expiresAt.getTime() - card.createdAt.getTime()) / 1000).toBeCloseTo(90 * DAY, -1);
    expect(await balanceOf(who.userId)).toEqual({ balance: 0, ledgerSum: 0 });
    expect((await signInfoOf(who)).data).toMatchObject({ allSignDay: 7, todaySign: true });
  });

  it("a member's card reward is doubled too", async () => {
    const member = await signIn(t);
    await t.db.signDay.createMany({
      data: otherDaysThisMonth(13).map((day) => ({
        userId: member.userId,
        day,
        signRewardNumber: 10,
        signRewardType: 0,
      })),
    });
    expect((await signToday(member)).data).toEqual({
      signCheck: 1,
      signRewardNumber: 3600,
      signRewardType: 1,
      memberTimes: 2,
    });
    const card = await t.db.timeCard.findFirstOrThrow({ where: { userId: member.userId, source: "checkin" } });
    expect(card.seconds).toBe(7200);
  });

  it("advances the daily task 'checkin' and the challenge 'checkin_days', once", async () => {
    const who = await nonMember();
    const m = businessMonth(new Date(), TZ);
    await signToday(who);
    await signToday(who);
    const progress = await t.db.taskProgress.findMany({
      where: { userId: who.userId },
      orderBy: { challengeId: "asc" },
      include: { task: { select: { action: true } } },
    });
    expect(progress.map((p) => [p.task.action, p.period, p.progressAmount])).toEqual([
      ["checkin", m.today, 1],
      ["checkin_days", "once", 1],
    ]);
  });

  it("10 parallel sign requests: exactly one reward, the balance equals the ledger sum", async () => {
    const who = await nonMember();
    const bystander = await nonMember();
    const results = await Promise.all(Array.from({ length: 10 }, () => signToday(who)));
    expect(results.every((r) => r.status_code === 1)).toBe(true);
    const checks = results.map((r) => r.data.signCheck).sort();
    expect(checks).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(await t.db.signDay.count({ where: { userId: who.userId } })).toBe(1);
    expect(await t.db.beanLedger.count({ where: { userId: who.userId } })).toBe(1);
    expect(await balanceOf(who.userId)).toEqual({ balance: 10, ledgerSum: 10 });
    const progress = await t.db.taskProgress.findMany({ where: { userId: who.userId } });
    expect(progress.map((p) => p.progressAmount)).toEqual([1, 1]);

    // Another user's data is unaffected.
    expect((await signInfoOf(bystander)).data).toMatchObject({ allSignDay: 0, todaySign: false });
    expect(await balanceOf(bystander.userId)).toEqual({ balance: 0, ledgerSum: 0 });
    expect(await t.db.taskProgress.count({ where: { userId: bystander.userId } })).toBe(0);
  });

  it("10 parallel check-ins through the service: one reward (also on embedded PGlite)", async () => {
    const who = await nonMember();
    const results = await Promise.all(Array.from({ length: 10 }, () => sign(t.domain, who.userId)));
    expect(results.map((r) => r.signCheck).sort()).toEqual([1, 2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(await balanceOf(who.userId)).toEqual({ balance: 10, ledgerSum: 10 });
    expect(await t.db.signDay.count({ where: { userId: who.userId } })).toBe(1);
  });

  it("parallel check-ins of several users each reward their own user", async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => nonMember()));
    await Promise.all(users.flatMap((u) => [signToday(u), signToday(u), signToday(u)]));
    for (const u of users) expect(await balanceOf(u.userId)).toEqual({ balance: 10, ledgerSum: 10 });
  });

  it("starts afresh each month at 00:00 in the business time zone, without back-filling", async () => {
    const who = await nonMember();
    const at = (iso: string) => new Date(iso);
    // 23:59:59 on March 31st in Shanghai.
    expect(await sign(domainAt(t, at("2030-03-31T15:59:59Z")), who.userId)).toMatchObject({ signCheck: 1 });
    expect(await signInfo(domainAt(t, at("2030-03-31T15:59:59Z")), who.userId)).toMatchObject({
      nowMonth: 3,
      allSignDay: 1,
      todaySign: true,
    });
    // One second later it is April 1st: a new month, nothing signed in it yet.
    const april = at("2030-03-31T16:00:00Z");
    expect(await signInfo(domainAt(t, april), who.userId)).toMatchObject({
      nowMonth: 4,
      allSignDay: 0,
      todaySign: false,
    });
    expect(await sign(domainAt(t, april), who.userId)).toEqual({
      signCheck: 1,
      signRewardNumber: 10,
      signRewardType: 0,
      memberTimes: 1,
    });
    expect(await sign(domainAt(t, at("2030-04-01T15:59:59Z")), who.userId)).toMatchObject({ signCheck: 2 });
    // Skipping days does not skip rewards: the next sign is the 2nd signed day of April.
    expect(await sign(domainAt(t, at("2030-04-09T02:00:00Z")), who.userId)).toMatchObject({ signCheck: 1 });
    expect(await signInfo(domainAt(t, at("2030-04-20T02:00:00Z")), who.userId)).toMatchObject({ allSignDay: 2 });
    const ledger = await t.db.beanLedger.findMany({ where: { userId: who.userId }, orderBy: { id: "asc" } });
    expect(ledger.map((l) => [l.refId, l.amount, l.balanceAfter])).toEqual([
      ["2030-03-31", 10, 10],
      ["2030-04-01", 10, 20],
      ["2030-04-09", 10, 30],
    ]);
  });

  it("answers the OpenAPI document with the check-in schemas", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    expect(JSON.stringify(doc.paths["/voice_yuelu/api/v1/store/sign_info"])).toContain("rewardContentList");
    expect(JSON.stringify(doc.paths["/voice_yuelu/api/v1/store/sign"])).toContain("memberTimes");
  });

  it("keeps every user's cached balance equal to their ledger sum", async () => {
    const drift = await t.db.$queryRaw<{ id: number }[]>`
      SELECT u.id FROM users u LEFT JOIN bean_ledger l ON l."userId" = u.id
      GROUP BY u.id HAVING u."beanBalance" <> COALESCE(sum(l.amount), 0)`;
    expect(drift).toEqual([]);
  });
});
