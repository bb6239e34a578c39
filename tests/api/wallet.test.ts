import { StatusCode } from "@yuelu/contracts";
import { AppError, extendMembership, grantBeans, grantTimeCard, spendBeans } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

let t: TestApp;
let alice: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

const DAY = 86400;

async function state(userId: number) {
  const [user, ledger] = await Promise.all([
    t.db.user.findUniqueOrThrow({ where: { id: userId }, select: { beanBalance: true } }),
    t.db.beanLedger.aggregate({ where: { userId }, _sum: { amount: true }, _count: true }),
  ]);
  return { balance: user.beanBalance, ledgerSum: ledger._sum.amount ?? 0, rows: ledger._count };
}

describe("bean ledger helpers", () => {
  it("grants once per (reason, refId), recording the balance after each posting", async () => {
    const first = await t.db.$transaction((tx) => grantBeans(tx, alice.userId, 30, "test", "a"));
    expect(first).toEqual({ applied: true, balance: 30 });
    const replay = await t.db.$transaction((tx) => grantBeans(tx, alice.userId, 30, "test", "a"));
    expect(replay).toEqual({ applied: false, balance: 30 });
    const other = await t.db.$transaction((tx) => grantBeans(tx, alice.userId, 5, "test", "b"));
    expect(other).toEqual({ applied: true, balance: 35 });
    expect(await state(alice.userId)).toEqual({ balance: 35, ledgerSum: 35, rows: 2 });
  });

  it("spends only what is there: 60001 and no change otherwise", async () => {
    const before = await state(alice.userId);
    const spend = t.db.$transaction((tx) => spendBeans(tx, alice.userId, before.balance + 1, "test-spend", "x"));
    await expect(spend).rejects.toMatchObject({ code: StatusCode.NotEnoughBeans });
    await expect(spend).rejects.toBeInstanceOf(AppError);
    expect(await state(alice.userId)).toEqual(before);

    const ok = await t.db.$transaction((tx) => spendBeans(tx, alice.userId, 15, "test-spend", "y"));
    expect(ok).toEqual({ applied: true, balance: before.balance - 15 });
    const replay = await t.db.$transaction((tx) => spendBeans(tx, alice.userId, 15, "test-spend", "y"));
    expect(replay.applied).toBe(false);
    const ledger = await t.db.beanLedger.findFirstOrThrow({ where: { userId: alice.userId, reason: "test-spend" } });
    expect(ledger).toMatchObject({ amount: -15, balanceAfter: before.balance - 15 });
    expect(await state(alice.userId)).toMatchObject({ balance: before.balance - 15, ledgerSum: before.balance - 15 });
  });

  it("refuses amounts that are not positive integers", async () => {
    await expect(t.db.$transaction((tx) => grantBeans(tx, alice.userId, 0, "test", "zero"))).rejects.toThrow();
    await expect(t.db.$transaction((tx) => grantBeans(tx, alice.userId, 1.5, "test", "half"))).rejects.toThrow();
  });

  it("parallel postings: one per key, every one counted, balance = ledger sum", async () => {
    const bob = await signIn(t);
    await Promise.all([
      ...Array.from({ length: 8 }, () => t.db.$transaction((tx) => grantBeans(tx, bob.userId, 7, "race", "same"))),
      ...Array.from({ length: 8 }, (_, i) =>
        t.db.$transaction((tx) => grantBeans(tx, bob.userId, 1, "race", `key-${i}`)),
      ),
    ]);
    expect(await state(bob.userId)).toEqual({ balance: 15, ledgerSum: 15, rows: 9 });
    const rows = await t.db.beanLedger.findMany({ where: { userId: bob.userId }, orderBy: { balanceAfter: "asc" } });
    // The balances after each posting form one consistent sequence.
    let running = 0;
    for (const row of rows) {
      running += row.amount;
      expect(row.balanceAfter).toBe(running);
    }
  });
});

describe("time card and membership helpers", () => {
  it("grants a card once per (source, refId)", async () => {
    const now = new Date();
    const grant = () =>
      t.db.$transaction((tx) =>
        grantTimeCard(tx, { userId: alice.userId, seconds: 600, validSeconds: DAY, source: "gift", refId: "G1", now }),
      );
    expect(await grant()).toBe(true);
    expect(await grant()).toBe(false);
    const card = await t.db.timeCard.findUniqueOrThrow({
      where: { userId_source_refId: { userId: alice.userId, source: "gift", refId: "G1" } },
    });
    expect(card).toMatchObject({ seconds: 600, remaining: 600 });
    expect(card.expiresAt.getTime()).toBe(now.getTime() + DAY * 1000);
  });

  it("extends a running membership from its end, an expired one from now", async () => {
    const now = new Date("2031-06-01T00:00:00.000Z");
    await t.db.user.update({ where: { id: alice.userId }, data: { memberEffectiveTime: null } });
    const a = await t.db.$transaction((tx) => extendMembership(tx, alice.userId, 10 * DAY, now));
    expect(a.toISOString()).toBe("2031-06-11T00:00:00.000Z");
    const b = await t.db.$transaction((tx) => extendMembership(tx, alice.userId, 5 * DAY, now));
    expect(b.toISOString()).toBe("2031-06-16T00:00:00.000Z");
    const later = new Date("2031-07-01T00:00:00.000Z");
    const c = await t.db.$transaction((tx) => extendMembership(tx, alice.userId, DAY, later));
    expect(c.toISOString()).toBe("2031-07-02T00:00:00.000Z");
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => t.db.$transaction((tx) => extendMembership(tx, alice.userId, DAY, later))),
    );
    expect(
      parallel
        .map((d) => d.toISOString())
        .sort()
        .at(-1),
    ).toBe("2031-07-07T00:00:00.000Z");
  });
});
