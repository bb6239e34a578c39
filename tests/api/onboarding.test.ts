import { findOrCreateAccount } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp, uniquePhone } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3600;
const DAY = 86400;
const nowSeconds = () => Date.now() / 1000;

const userInfo = async (who: SignedIn) => {
  const res = await t.http().get("/voice_yuelu/api/v1/user/info").set("Cookie", who.cookie);
  expect(res.body.status_code).toBe(1);
  return res.body.data;
};

/** Signs in through the SMS login, as the login page does, with an optional invite code. */
async function signUp(phone: string, inviteCode?: unknown): Promise<SignedIn> {
  await t.http().post("/account/api/sms/send").send({ phone });
  const res = await t
    .http()
    .post("/account/api/login")
    .send({ phone, code: t.sms.lastCode(phone), ...(inviteCode !== undefined ? { inviteCode } : {}) });
  expect(res.body.status_code).toBe(1);
  const cookies = [res.headers["set-cookie"] ?? []].flat() as string[];
  return { userId: res.body.data.userId, phone, cookie: cookies.map((c) => c.split(";")[0]).join("; ") };
}

async function devLogin(phone: string, inviteCode?: string) {
  const query = new URLSearchParams({ phone, redir: "/home", ...(inviteCode ? { inviteCode } : {}) });
  return t.http().get(`/account/dev-login?${query}`).set("Host", "localhost:8080");
}

async function setWelcomeSetting(value: object | null) {
  if (value === null) await t.db.appSetting.deleteMany({ where: { key: "welcome_gifts" } });
  else
    await t.db.appSetting.upsert({
      where: { key: "welcome_gifts" },
      create: { key: "welcome_gifts", value },
      update: { value },
    });
}
const SEEDED_SETTING = { newUserSeconds: 10800, inviteSeconds: 18000, blackCardDays: 30, blackCardEnabled: true };

describe("welcome gifts on first login", () => {
  it("grants one 3-hour card valid a year, 30 days of membership, and raises the gift flags", async () => {
    const before = nowSeconds();
    const alice = await signIn(t);
    const cards = await t.db.timeCard.findMany({ where: { userId: alice.userId } });
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ seconds: 3 * HOUR, remaining: 3 * HOUR, source: "welcome", refId: "new_user" });
    const cardExpiry = (cards[0]?.expiresAt.getTime() ?? 0) / 1000;
    expect(cardExpiry).toBeGreaterThanOrEqual(Math.floor(before) + 31_536_000 - 1);
    expect(cardExpiry).toBeLessThanOrEqual(nowSeconds() + 31_536_000 + 1);

    const gifts = await t.db.welcomeGift.findMany({ where: { userId: alice.userId }, orderBy: { kind: "asc" } });
    expect(gifts.map((g) => [g.kind, g.shownAt])).toEqual([
      ["black_card", null],
      ["new_user", null],
    ]);

    const info = await userInfo(alice);
    expect(info).toMatchObject({ received: true, receiveSuccess: false, blackProReceive: true, isMember: true });
    expect(info.memberEffectiveTime).toBeGreaterThanOrEqual(Math.floor(before) + 30 * DAY - 1);
    expect(info.memberEffectiveTime).toBeLessThanOrEqual(nowSeconds() + 30 * DAY + 1);
    expect(info.inviteCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);

    const storage = await t.http().get("/voice_yuelu/api/v1/user/storage_info").set("Cookie", alice.cookie);
    expect(storage.body.data).toMatchObject({ timeLimit: 3 * HOUR, timeUsed: 0, auth: 1 });
    const assets = await t.http().post("/voice_yuelu/api/v1/store/get_asset").set("Cookie", alice.cookie);
    expect(assets.body.data).toEqual({ allTimeCard: 3 * HOUR, allCoinNumber: 0 });
  });

  it("grants nothing more on later logins", async () => {
    const phone = uniquePhone();
    const first = await devLogin(phone);
    const userId = Number(/userid=(\d+)/.exec(String(first.headers["set-cookie"]))?.[1]);
    const until = (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).memberEffectiveTime;
    await devLogin(phone);
    await t.limiter.reset(`sms:phone:${phone}`);
    await signUp(phone);
    expect(await t.db.timeCard.count({ where: { userId } })).toBe(1);
    expect(await t.db.welcomeGift.count({ where: { userId } })).toBe(2);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: userId } })).memberEffectiveTime).toEqual(until);
  });

  it("giftsShown marks gifts announced: the flags clear, in the cached user info too", async () => {
    const bob = await signIn(t);
    expect(await userInfo(bob)).toMatchObject({ received: true, blackProReceive: true }); // now cached
    const one = await t
      .http()
      .post("/voice_yuelu/api/v1/user/update_info")
      .set("Cookie", bob.cookie)
      .send({ giftsShown: "new_user" });
    expect(one.body.data).toMatchObject({ received: false, blackProReceive: true });
    expect(await userInfo(bob)).toMatchObject({ received: false, receiveSuccess: false, blackProReceive: true });
    await t
      .http()
      .post("/voice_yuelu/api/v1/user/update_info")
      .set("Cookie", bob.cookie)
      .send({ giftsShown: ["black_card", "invite"] });
    expect(await userInfo(bob)).toMatchObject({ received: false, receiveSuccess: false, blackProReceive: false });
    // Announcing takes nothing away.
    expect(await t.db.timeCard.count({ where: { userId: bob.userId } })).toBe(1);
    expect((await userInfo(bob)).isMember).toBe(true);
  });

  it("10 parallel first logins of one phone create one user and one set of gifts", async () => {
    const phone = uniquePhone();
    const results = await Promise.all(Array.from({ length: 10 }, () => devLogin(phone)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(302));
    const users = await t.db.user.findMany({ where: { phone } });
    expect(users).toHaveLength(1);
    const userId = users[0]?.id ?? 0;
    const ids = results.map((r) => Number(/userid=(\d+)/.exec(String(r.headers["set-cookie"]))?.[1]));
    expect(new Set(ids)).toEqual(new Set([userId]));
    expect(await t.db.timeCard.count({ where: { userId } })).toBe(1);
    expect(await t.db.welcomeGift.count({ where: { userId } })).toBe(2);
    const until = users[0]?.memberEffectiveTime?.getTime() ?? 0;
    expect(until / 1000).toBeLessThanOrEqual(nowSeconds() + 30 * DAY + 1); // extended once, not ten times
  });

  it("the same race through the service, with an invite code", async () => {
    const inviter = await signIn(t);
    const { inviteCode } = await userInfo(inviter);
    const phone = uniquePhone();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => findOrCreateAccount(t.domain, phone, { inviteCode })),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const userId = results[0]?.user.id ?? 0;
    expect(results.every((r) => r.user.id === userId)).toBe(true);
    const cards = await t.db.timeCard.findMany({ where: { userId }, orderBy: { refId: "asc" } });
    expect(cards.map((c) => [c.refId, c.seconds])).toEqual([
      ["invite", 5 * HOUR],
      ["new_user", 3 * HOUR],
    ]);
    expect(await t.db.welcomeGift.count({ where: { userId } })).toBe(3);
  });
});

describe("invite codes", () => {
  it("every user has a distinct code of 8 unambiguous characters", async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    const [ca, cb] = [(await userInfo(a)).inviteCode, (await userInfo(b)).inviteCode];
    expect(ca).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(cb).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(ca).not.toBe(cb);
  });

  it("signing up with someone's code grants the 5-hour invitation card and records the inviter", async () => {
    const inviter = await signIn(t);
    const inviterInfo = await userInfo(inviter);
    // Case and spaces do not matter.
    const invitee = await signUp(uniquePhone(), ` ${inviterInfo.inviteCode.toLowerCase()} `);
    const info = await userInfo(invitee);
    expect(info).toMatchObject({ received: true, receiveSuccess: true, blackProReceive: true });
    expect(info.inviteCode).not.toBe(inviterInfo.inviteCode);
    const card = await t.db.timeCard.findUniqueOrThrow({
      where: { userId_source_refId: { userId: invitee.userId, source: "welcome", refId: "invite" } },
    });
    expect(card).toMatchObject({ seconds: 5 * HOUR, remaining: 5 * HOUR });
    expect((card.expiresAt.getTime() - card.createdAt.getTime()) / 1000).toBeCloseTo(31_536_000, -1);
    const row = await t.db.user.findUniqueOrThrow({ where: { id: invitee.userId } });
    expect(row.invitedById).toBe(inviter.userId);

    const assets = await t.http().post("/voice_yuelu/api/v1/store/get_asset").set("Cookie", invitee.cookie);
    expect(assets.body.data.allTimeCard).toBe(8 * HOUR);
    // The inviter's own data is untouched.
    expect(await t.db.timeCard.count({ where: { userId: inviter.userId } })).toBe(1);
    expect(await userInfo(inviter)).toMatchObject({ receiveSuccess: false, inviteCode: inviterInfo.inviteCode });

    // The invitation gift is announced like the others.
    await t
      .http()
      .post("/voice_yuelu/api/v1/user/update_info")
      .set("Cookie", invitee.cookie)
      .send({ giftsShown: ["invite"] });
    expect(await userInfo(invitee)).toMatchObject({ received: true, receiveSuccess: false });
  });

  it.each([
    ["an unknown code", "ZZZZ2222"],
    ["a malformed code", "not a code!"],
    ["an empty code", ""],
    ["a number", 12345678],
  ])("ignores %s: the login succeeds without the invitation gift", async (_what, code) => {
    const phone = uniquePhone();
    const user = await signUp(phone, code);
    expect(await userInfo(user)).toMatchObject({ received: true, receiveSuccess: false });
    expect(await t.db.timeCard.count({ where: { userId: user.userId } })).toBe(1);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.userId } })).invitedById).toBeNull();
  });

  it("an existing account that logs in with a code gets nothing for it", async () => {
    const inviter = await signIn(t);
    const { inviteCode } = await userInfo(inviter);
    const old = await signIn(t);
    await t.limiter.reset(`sms:phone:${old.phone}`);
    await signUp(old.phone, inviteCode);
    expect(await t.db.timeCard.count({ where: { userId: old.userId } })).toBe(1);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: old.userId } })).invitedById).toBeNull();
  });

  it("a purged (deleted) user's code is not valid", async () => {
    const gone = await signIn(t);
    const { inviteCode } = await userInfo(gone);
    await t.db.user.update({ where: { id: gone.userId }, data: { deletedAt: new Date(), phone: null } });
    const user = await signUp(uniquePhone(), inviteCode);
    expect((await userInfo(user)).receiveSuccess).toBe(false);
  });

  it("dev-login takes inviteCode from the query", async () => {
    const inviter = await signIn(t);
    const { inviteCode } = await userInfo(inviter);
    const phone = uniquePhone();
    expect((await devLogin(phone, inviteCode)).status).toBe(302);
    const user = await t.db.user.findUniqueOrThrow({ where: { phone } });
    expect(user.invitedById).toBe(inviter.userId);
    expect(await t.db.welcomeGift.count({ where: { userId: user.id, kind: "invite" } })).toBe(1);
  });

  it("the login page sends its own `invite` query parameter along as inviteCode", async () => {
    const res = await t.http().get("/account/login?invite=ABCD2345");
    expect(res.status).toBe(200);
    expect(res.text).toContain('new URLSearchParams(location.search).get("invite")');
    expect(res.text).toContain("body.inviteCode = INVITE");
  });

  it("the OpenAPI document shows inviteCode on the login and in user info", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    expect(JSON.stringify(doc.paths["/account/api/login"])).toContain("inviteCode");
    expect(JSON.stringify(doc.paths["/voice_yuelu/api/v1/user/info"])).toContain("inviteCode");
  });
});

describe("the welcome_gifts setting", () => {
  it("switches the black card off, and sets the card sizes", async () => {
    try {
      await setWelcomeSetting({ ...SEEDED_SETTING, blackCardEnabled: false, newUserSeconds: HOUR });
      const user = await signIn(t);
      expect(await userInfo(user)).toMatchObject({
        received: true,
        blackProReceive: false,
        isMember: false,
        memberEffectiveTime: 0,
      });
      expect((await t.db.timeCard.findFirstOrThrow({ where: { userId: user.userId } })).seconds).toBe(HOUR);
      expect(await t.db.welcomeGift.count({ where: { userId: user.userId, kind: "black_card" } })).toBe(0);
    } finally {
      await setWelcomeSetting(SEEDED_SETTING);
    }
  });

  it("falls back to the defaults without the row, or for a field it cannot read", async () => {
    try {
      await setWelcomeSetting(null);
      const a = await signIn(t);
      expect(await userInfo(a)).toMatchObject({ received: true, blackProReceive: true, isMember: true });
      expect((await t.db.timeCard.findFirstOrThrow({ where: { userId: a.userId } })).seconds).toBe(3 * HOUR);

      await setWelcomeSetting({ newUserSeconds: "lots", blackCardDays: 7 });
      const b = await signIn(t);
      expect((await t.db.timeCard.findFirstOrThrow({ where: { userId: b.userId } })).seconds).toBe(3 * HOUR);
      const until = (await userInfo(b)).memberEffectiveTime;
      expect(until).toBeLessThanOrEqual(nowSeconds() + 7 * DAY + 1);
      expect(until).toBeGreaterThan(nowSeconds() + 6 * DAY);
    } finally {
      await setWelcomeSetting(SEEDED_SETTING);
    }
  });
});
