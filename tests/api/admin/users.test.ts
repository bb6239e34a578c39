import { randomBytes } from "node:crypto";
import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, devSession, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";
import { seedCards, seedOrder, seedRecord, seedUser } from "../../helpers/factories.ts";

/**
 * The console's users (docs/admin.md "Users"): search, one user's detail and bean ledger, grants
 * that happen exactly once per requestId through the same ledgers as every other grant, and
 * disabling a user, which ends their sessions at once.
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
const requestId = () => `req-${randomBytes(8).toString("hex")}`;

describe("finding users", () => {
  it("finds a user by exact phone, phone prefix or id, pages and sorts", async () => {
    const prefix = `1357${String(process.pid % 1000).padStart(3, "0")}`;
    const users = [];
    for (let i = 0; i < 3; i++)
      users.push(await seedUser(t.db, { phone: `${prefix}${String(i).padStart(4, "0")}`, beans: (i + 1) * 10 }));

    const exact = await get(`/users?q=${users[1]!.phone}`);
    expect(exact.body.status_code).toBe(1);
    expect(exact.body.data.items.map((u: { id: number }) => u.id)).toEqual([users[1]!.id]);

    const byPrefix = await get(`/users?q=${prefix}&sort=beanBalance&order=asc&pageSize=2`);
    expect(byPrefix.body.data).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(byPrefix.body.data.items.map((u: { beanBalance: number }) => u.beanBalance)).toEqual([10, 20]);
    const second = await get(`/users?q=${prefix}&sort=beanBalance&order=asc&pageSize=2&page=2`);
    expect(second.body.data.items.map((u: { beanBalance: number }) => u.beanBalance)).toEqual([30]);

    const byId = await get(`/users?q=${users[2]!.id}`);
    expect(byId.body.data.items.map((u: { id: number }) => u.id)).toContain(users[2]!.id);
    expect(byId.body.data.items[0]).toMatchObject({ role: "user", disabledAt: null, isMember: false });
  });

  it.each([
    ["/users?q=abc", "q"],
    ["/users?pageSize=500", "pageSize"],
    ["/users?sort=password", "sort"],
    ["/users/abc", "userId"],
    ["/users/1/beans?page=0", "page"],
  ])("answers 10002 naming the field for %s", async (path, field) => {
    const res = await get(path);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });

  it("answers 30001 for a user that does not exist", async () => {
    expect((await get("/users/2000000000")).body.status_code).toBe(30001);
  });
});

describe("one user", () => {
  it("shows profile, membership, cards, beans and their ledger, orders, records, storage and voices", async () => {
    const memberUntil = new Date(Date.now() + 5 * 86_400_000);
    const user = await seedUser(t.db, { beans: 42, memberUntil });
    await seedCards(t.db, user.id, [{ seconds: 3600, remaining: 1200 }]);
    const order = await seedOrder(t.db, { userId: user.id, goodsId: 1 });
    await seedRecord(t.db, { userId: user.id });
    await seedRecord(t.db, { userId: user.id, deletedAt: new Date() });

    const res = await get(`/users/${user.id}`);
    expect(res.body.status_code).toBe(1);
    const detail = res.body.data;
    expect(detail).toMatchObject({
      id: user.id,
      phone: user.phone,
      role: "user",
      beanBalance: 42,
      isMember: true,
      memberUntil: memberUntil.toISOString(),
      disabledAt: null,
      disabledReason: "",
      cardSecondsLeft: 1200,
      orderCount: 1,
      recordCount: 2,
      storageBytes: 2048,
      voiceCount: 0,
      sessions: 0,
    });
    expect(detail.cards).toHaveLength(1);
    expect(detail.cards[0]).toMatchObject({ seconds: 3600, remaining: 1200, expired: false });
    expect(detail.orders[0]).toMatchObject({ orderNumber: order.orderNumber, goodsName: "1-hour card" });

    const ledger = await get(`/users/${user.id}/beans`);
    expect(ledger.body.data).toMatchObject({ total: 1, page: 1 });
    expect(ledger.body.data.items[0]).toMatchObject({ amount: 42, reason: "seed", balanceAfter: 42 });
  });
});

describe("grants", () => {
  it("grants once for 20 parallel identical requests: one grant, one ledger row, the right balance, one audit row, one message", async () => {
    const user = await seedUser(t.db, { beans: 5 });
    const body = { requestId: requestId(), kind: "beans", amount: 100, reason: "compensation for an outage" };
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(`/users/${user.id}/grants`, body)));
    for (const a of answers) expect(a.body.status_code, JSON.stringify(a.body)).toBe(1);
    expect(answers.filter((a) => a.body.data.replayed === false)).toHaveLength(1);
    for (const a of answers)
      expect(a.body.data).toMatchObject({ beanBalance: 105, grant: { amount: 100, kind: "beans" } });

    expect(await t.db.adminGrant.count({ where: { requestId: body.requestId } })).toBe(1);
    const ledger = await t.db.beanLedger.findMany({ where: { userId: user.id, reason: "admin_grant" } });
    expect(ledger).toMatchObject([{ amount: 100, refId: body.requestId, balanceAfter: 105 }]);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).beanBalance).toBe(105);
    const audits = await t.db.adminAudit.findMany({ where: { action: "user.grant", target: `user:${user.id}` } });
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actorId: admin.userId, reason: body.reason, before: { beanBalance: 5 } });
    expect(
      await t.db.notification.count({ where: { userId: user.id, sourceRef: `admin-grant:${body.requestId}` } }),
    ).toBe(1);
  });

  it("grants each of several different requestIds, through the same ledgers as other grants", async () => {
    const user = await seedUser(t.db);
    const ids = [requestId(), requestId(), requestId()];
    const answers = await Promise.all(
      ids.map((id) =>
        post(`/users/${user.id}/grants`, { requestId: id, kind: "beans", amount: 7, reason: "three separate gifts" }),
      ),
    );
    for (const a of answers) expect(a.body.data.replayed).toBe(false);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).beanBalance).toBe(21);
    expect(await t.db.beanLedger.count({ where: { userId: user.id, reason: "admin_grant" } })).toBe(3);
    expect(await t.db.adminAudit.count({ where: { action: "user.grant", target: `user:${user.id}` } })).toBe(3);
  });

  it("grants a time card in minutes and days of membership, each with its message", async () => {
    const user = await seedUser(t.db);
    const card = await post(`/users/${user.id}/grants`, {
      requestId: requestId(),
      kind: "card_minutes",
      amount: 90,
      reason: "a present for testing",
      validDays: 30,
    });
    expect(card.body.data).toMatchObject({
      replayed: false,
      cardSecondsLeft: 5400,
      grant: { kind: "card_seconds", amount: 5400 },
    });
    const cards = await t.db.timeCard.findMany({ where: { userId: user.id } });
    expect(cards).toMatchObject([
      { seconds: 5400, remaining: 5400, source: "gift", refId: `admin:${card.body.data.grant.requestId}` },
    ]);
    expect(cards[0]!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect(cards[0]!.expiresAt.getTime() - Date.now()).toBeLessThan(31 * 86_400_000);

    const days = await post(`/users/${user.id}/grants`, {
      requestId: requestId(),
      kind: "member_days",
      amount: 10,
      reason: "membership present",
    });
    expect(days.body.status_code).toBe(1);
    const until = new Date(days.body.data.memberUntil).getTime();
    expect(Math.abs(until - (Date.now() + 10 * 86_400_000))).toBeLessThan(60_000);

    const messages = await t.db.notification.findMany({ where: { userId: user.id }, orderBy: { notifyId: "asc" } });
    expect(messages.map((m) => m.notifyTitleEn)).toEqual(["Time card added", "Membership extended"]);
    expect(messages[0]!.notifyTextEn).toContain("90-minute");

    // the user sees the membership in their own info at once (user.changed dropped the caches)
    const info = await get(`/users/${user.id}`);
    expect(info.body.data).toMatchObject({ isMember: true, cardSecondsLeft: 5400 });
  });

  it("refuses a requestId reused for another grant, a missing reason and a grant too large, naming the field", async () => {
    const user = await seedUser(t.db);
    const id = requestId();
    expect(
      (await post(`/users/${user.id}/grants`, { requestId: id, kind: "beans", amount: 5, reason: "first one" })).body
        .status_code,
    ).toBe(1);
    const reused = await post(`/users/${user.id}/grants`, {
      requestId: id,
      kind: "beans",
      amount: 6,
      reason: "first one",
    });
    expect(reused.body.status_code).toBe(10002);
    expect(reused.body.status_msg).toContain("requestId");
    const noReason = await post(`/users/${user.id}/grants`, { requestId: requestId(), kind: "beans", amount: 5 });
    expect(noReason.body.status_code).toBe(10002);
    expect(noReason.body.status_msg).toContain("reason");
    const huge = await post(`/users/${user.id}/grants`, {
      requestId: requestId(),
      kind: "member_days",
      amount: 100_000,
      reason: "typo",
    });
    expect(huge.body.status_code).toBe(10002);
    expect(huge.body.status_msg).toContain("amount");
    const badKey = await post(`/users/${user.id}/grants`, {
      requestId: "x",
      kind: "beans",
      amount: 1,
      reason: "short key",
    });
    expect(badKey.body.status_msg).toContain("requestId");
    expect(
      (await post("/users/2000000000/grants", { requestId: requestId(), kind: "beans", amount: 1, reason: "nobody" }))
        .body.status_code,
    ).toBe(30001);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: user.id } })).beanBalance).toBe(5);
  });
});

describe("disabling a user", () => {
  it("ends their sessions at once: the cookie they hold answers 10001, signing in answers 10007; enabling lets them back", async () => {
    const victim = await signIn(t);
    const me = () => t.http().get("/voice_yuelu/api/v1/user/info").set("cookie", victim.cookie);
    expect((await me()).body.status_code).toBe(1); // the session is now in the session cache

    const res = await post(`/users/${victim.userId}/disable`, { reason: "spam uploads" });
    expect(res.body.data).toMatchObject({ id: victim.userId, changed: true, disabledReason: "spam uploads" });
    expect(res.body.data.sessionsEnded).toBeGreaterThanOrEqual(1);
    expect((await me()).body.status_code).toBe(10001);
    expect(await t.db.session.count({ where: { userId: victim.userId } })).toBe(0);

    // signing in again (dev-login signs in like the SMS login, without the SMS cooldown)
    const again = await t.http().get(`/account/dev-login?phone=${victim.phone}&redir=/`).set("Host", "127.0.0.1");
    expect(again.body.status_code).toBe(10007);

    const twice = await post(`/users/${victim.userId}/disable`, { reason: "spam uploads" });
    expect(twice.body.data.changed).toBe(false);
    const audits = await t.db.adminAudit.findMany({
      where: { target: `user:${victim.userId}` },
      orderBy: { id: "asc" },
    });
    expect(audits.map((a) => a.action)).toEqual(["user.disable"]);
    expect(audits[0]).toMatchObject({
      reason: "spam uploads",
      actorId: admin.userId,
      after: { disabledReason: "spam uploads" },
    });

    const listed = await get(`/users?q=${victim.phone}&status=disabled`);
    expect(listed.body.data.items).toHaveLength(1);

    expect((await post(`/users/${victim.userId}/enable`, { reason: "appeal accepted" })).body.data).toMatchObject({
      changed: true,
      disabledAt: null,
    });
    expect((await devSession(t, victim.phone)).userId).toBe(victim.userId);
    expect(await t.db.adminAudit.count({ where: { target: `user:${victim.userId}`, action: "user.enable" } })).toBe(1);
  });

  it.runIf(Boolean(process.env.REDIS_URL))(
    "ends their session on another replica too, however recently it was cached there",
    async () => {
      const b = await createTestApp({}, { shareDatabaseWith: t });
      try {
        const victim = await signIn(t);
        const onB = () =>
          b
            .http()
            .get("/voice_yuelu/api/v1/user/info")
            .set("cookie", victim.cookie)
            .then((r) => r.body.status_code as number);
        expect(await onB()).toBe(1); // cached on b now
        await post(`/users/${victim.userId}/disable`, { reason: "stolen account" });
        // user.changed crosses Redis: b drops the session well before its cache would expire
        const start = Date.now();
        let status = await onB();
        while (status !== 10001 && Date.now() - start < 1000) status = await onB();
        expect(status).toBe(10001);
      } finally {
        await b.close();
      }
    },
  );

  it("will not let an operator disable themself, and wants a reason", async () => {
    const self = await post(`/users/${admin.userId}/disable`, { reason: "oops" });
    expect(self.body.status_code).toBe(10002);
    expect(self.body.status_msg).toContain("userId");
    const noReason = await post(`/users/${admin.userId}/disable`, {});
    expect(noReason.body.status_msg).toContain("reason");
    expect((await get("/me")).body.status_code).toBe(1);
  });
});
