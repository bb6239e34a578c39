import { TradeStatus } from "@yuelu/contracts";
import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { MockAlipayGateway } from "../../../apps/api/src/modules/payments/mock-alipay/gateway.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";
import { seedOrder } from "../../helpers/factories.ts";

/**
 * The console's orders (docs/admin.md "Orders"): the filtered table, one order with its payment
 * notifications, asking the provider about a stuck order (granting once), and refund-and-revoke,
 * which happens once however many operators press it at the same moment.
 */

let t: TestApp;
let admin: SignedIn;
let gateway: MockAlipayGateway;
/** false: the mock gateway's notifications are withheld (a stuck order) */
let deliver = true;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  await setRole(t.domain, CLI_ACTOR, admin.phone, "admin");
  gateway = t.app.payments as MockAlipayGateway;
  gateway.startDelivery(async (params) => {
    if (!deliver) return "not now";
    const res = await t.http().post("/voice_yuelu/api/v1/pay/notify/alipay").type("form").send(params);
    return res.text;
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  deliver = true;
});

const url = (p: string) => `/voice_yuelu/admin${p}`;
const get = (p: string) => t.http().get(url(p)).set("cookie", admin.cookie).set("lang", "en");
const post = (p: string, body: object) =>
  t.http().post(url(p)).set("cookie", admin.cookie).set("lang", "en").send(body);

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  let value = await read();
  while (!ok(value) && Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, 50));
    value = await read();
  }
  return value;
}

/** An order the customer placed and paid at the mock gateway; granted once its notification arrives (unless withheld). */
async function paidOrder(customer: SignedIn, goodsId: number): Promise<string> {
  const placed = await t
    .http()
    .post("/voice_yuelu/api/v1/pay/execute_payment")
    .set("cookie", customer.cookie)
    .send({ goodsId, payAgent: "alipay", source: 0 });
  expect(placed.body.status_code).toBe(1);
  const { orderNumber } = placed.body.data as { orderNumber: string };
  expect((await t.http().post(`/mock-alipay/api/${orderNumber}/pay`).send({})).body.data.status).toBe("TRADE_SUCCESS");
  if (deliver) {
    const order = await eventually(
      () => t.db.order.findUniqueOrThrow({ where: { orderNumber } }),
      (o) => o.grantedAt !== null,
    );
    expect(order.tradeStatus).toBe(TradeStatus.Paid);
  }
  return orderNumber;
}

const memberUntil = async (userId: number) =>
  (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).memberEffectiveTime;

describe("the orders table", () => {
  it("filters by status, user id or phone, goods, order number and days, pages and sorts", async () => {
    const customer = await signIn(t);
    const paid = await paidOrder(customer, 1);
    const open = await seedOrder(t.db, { userId: customer.userId, goodsId: 8 });

    const mine = await get(`/orders?user=${customer.userId}`);
    expect(mine.body.status_code).toBe(1);
    expect(mine.body.data.total).toBe(2);
    const byPhone = await get(`/orders?user=${customer.phone}&tradeStatus=1`);
    expect(byPhone.body.data.items).toMatchObject([
      {
        orderNumber: paid,
        phone: customer.phone,
        goodsId: 1,
        goodsName: "1-hour card",
        amountFen: 600,
        tradeStatus: 1,
      },
    ]);
    expect((await get(`/orders?user=${customer.userId}&goodsId=8`)).body.data.items).toMatchObject([
      { orderNumber: open.orderNumber, tradeStatus: -1, paidAt: null },
    ]);
    expect((await get(`/orders?orderNumber=${paid}`)).body.data.items).toHaveLength(1);
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: t.config.BUSINESS_TZ }).format(new Date());
    expect((await get(`/orders?user=${customer.userId}&from=${today}&to=${today}`)).body.data.total).toBe(2);
    expect((await get(`/orders?user=${customer.userId}&to=2000-01-01`)).body.data.total).toBe(0);
    const sorted = await get(`/orders?user=${customer.userId}&sort=amountFen&order=asc&pageSize=1`);
    expect(sorted.body.data).toMatchObject({ total: 2, pageSize: 1, items: [{ amountFen: 600 }] });
    expect((await get(`/orders?user=${customer.userId}&refunded=true`)).body.data.total).toBe(0);
  });

  it.each([
    ["/orders?tradeStatus=9", "tradeStatus"],
    ["/orders?from=yesterday", "from"],
    ["/orders?to=2025-02-30", "to"],
    ["/orders?user=abc", "user"],
    ["/orders?sort=phone", "sort"],
  ])("answers 10002 naming the field for %s", async (path, field) => {
    const res = await get(path);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
  });

  it("shows one order with the payment notifications it received; an unknown one is 60003", async () => {
    const customer = await signIn(t);
    const orderNumber = await paidOrder(customer, 1);
    const res = await get(`/orders/${orderNumber}`);
    expect(res.body.data).toMatchObject({ orderNumber, duration: 3600, card: { seconds: 3600, remaining: 3600 } });
    expect(res.body.data.notifications).toHaveLength(1);
    expect(res.body.data.notifications[0]).toMatchObject({ tradeStatus: "TRADE_SUCCESS" });
    expect(res.body.data.notifications[0].payload).toMatchObject({ out_trade_no: orderNumber, total_amount: "6.00" });
    expect((await get("/orders/NOSUCHORDER")).body.status_code).toBe(60003);
  });
});

describe("asking the provider about a stuck order", () => {
  it("applies a payment whose notification never came, granting once however often it is asked", async () => {
    deliver = false;
    const customer = await signIn(t);
    await t.db.user.update({ where: { id: customer.userId }, data: { memberEffectiveTime: null } }); // no welcome membership
    const orderNumber = await paidOrder(customer, 7);
    expect((await t.db.order.findUniqueOrThrow({ where: { orderNumber } })).grantedAt).toBeNull();

    const first = await post(`/orders/${orderNumber}/requery`, {});
    expect(first.body.data).toMatchObject({ providerStatus: "TRADE_SUCCESS", before: -1, after: 1, granted: true });
    const until = (await memberUntil(customer.userId))!.getTime();
    expect(Math.abs(until - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);

    const again = await post(`/orders/${orderNumber}/requery`, {});
    expect(again.body.data).toMatchObject({ providerStatus: "TRADE_SUCCESS", before: 1, after: 1, granted: false });
    expect((await memberUntil(customer.userId))!.getTime()).toBe(until);
    const audits = await t.db.adminAudit.findMany({
      where: { action: "order.requery", target: `order:${orderNumber}` },
    });
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({
      actorId: admin.userId,
      after: { granted: true, providerStatus: "TRADE_SUCCESS" },
    });
  });

  it("notes an order the payer never scanned as it is", async () => {
    const customer = await signIn(t);
    const order = await seedOrder(t.db, { userId: customer.userId, goodsId: 1 });
    const res = await post(`/orders/${order.orderNumber}/requery`, {});
    expect(res.body.data).toMatchObject({ providerStatus: "NOT_FOUND", before: -1, after: -1, granted: false });
  });
});

describe("refund and revoke", () => {
  it("refunds a membership at the provider and moves the membership back by its days, keeping what came before", async () => {
    const customer = await signIn(t);
    const earlier = new Date(Date.now() + 10 * 86_400_000);
    await t.db.user.update({ where: { id: customer.userId }, data: { memberEffectiveTime: earlier } });
    const orderNumber = await paidOrder(customer, 7); // 30 days on top of the 10
    const extended = (await memberUntil(customer.userId))!;
    expect(extended.getTime() - earlier.getTime()).toBe(30 * 86_400_000);

    const res = await post(`/orders/${orderNumber}/refund`, { reason: "charged twice by the bank" });
    expect(res.body.status_code, JSON.stringify(res.body)).toBe(1);
    expect(res.body.data).toMatchObject({
      memberUntilBefore: extended.toISOString(),
      memberUntilAfter: earlier.toISOString(),
      cardSecondsRevoked: 0,
      order: { orderNumber, refundReason: "charged twice by the bank" },
    });
    expect(res.body.data.order.refundedAt).not.toBeNull();
    expect((await memberUntil(customer.userId))!.toISOString()).toBe(earlier.toISOString());
    // the money went back at the gateway: like Alipay, a fully refunded trade reads closed
    expect((await t.db.mockAlipayTrade.findUniqueOrThrow({ where: { outTradeNo: orderNumber } })).status).toBe(
      "TRADE_CLOSED",
    );
    const audit = await t.db.adminAudit.findFirstOrThrow({
      where: { action: "order.refund", target: `order:${orderNumber}` },
    });
    expect(audit).toMatchObject({ reason: "charged twice by the bank", actorId: admin.userId });
    const message = await t.db.notification.findFirstOrThrow({
      where: { userId: customer.userId, sourceRef: `refund:${orderNumber}` },
    });
    expect(message.notifyTitleEn).toBe("Order refunded");
    expect((await get(`/orders?user=${customer.userId}&refunded=true`)).body.data.total).toBe(1);
  });

  it("never moves a membership back before now", async () => {
    const customer = await signIn(t);
    await t.db.user.update({ where: { id: customer.userId }, data: { memberEffectiveTime: null } });
    const orderNumber = await paidOrder(customer, 8); // 90 days, nothing before
    const res = await post(`/orders/${orderNumber}/refund`, { reason: "refund within a day" });
    const after = new Date(res.body.data.memberUntilAfter).getTime();
    expect(Math.abs(after - Date.now())).toBeLessThan(60_000);
  });

  it("zeroes what is left of the card a duration-card order granted", async () => {
    const customer = await signIn(t);
    const orderNumber = await paidOrder(customer, 1);
    const card = await t.db.timeCard.findFirstOrThrow({ where: { userId: customer.userId, refId: orderNumber } });
    await t.db.timeCard.update({ where: { id: card.id }, data: { remaining: 1000 } }); // some of it used
    const res = await post(`/orders/${orderNumber}/refund`, { reason: "card never used properly" });
    expect(res.body.data).toMatchObject({ cardSecondsRevoked: 1000, order: { card: { id: card.id, remaining: 0 } } });
    expect((await t.db.timeCard.findUniqueOrThrow({ where: { id: card.id } })).remaining).toBe(0);
  });

  it("refunds once for 10 parallel refunds; the others, and any later one, answer 60008", async () => {
    const customer = await signIn(t);
    const orderNumber = await paidOrder(customer, 1);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => post(`/orders/${orderNumber}/refund`, { reason: "parallel operators" })),
    );
    const codes = answers.map((a) => a.body.status_code).sort();
    expect(codes).toEqual([1, ...Array(9).fill(60008)]);
    expect(answers.find((a) => a.body.status_code === 60008)!.body.status_msg).toMatch(/cannot be paid again/);
    expect(await t.db.adminAudit.count({ where: { action: "order.refund", target: `order:${orderNumber}` } })).toBe(1);
    expect(await t.db.notification.count({ where: { sourceRef: `refund:${orderNumber}` } })).toBe(1);
    expect((await post(`/orders/${orderNumber}/refund`, { reason: "once more" })).body.status_code).toBe(60008);
  });

  it("refuses an unpaid order (60008), an unknown one (60003) and a refund without a reason (10002 naming it)", async () => {
    const customer = await signIn(t);
    const open = await seedOrder(t.db, { userId: customer.userId, goodsId: 1 });
    expect((await post(`/orders/${open.orderNumber}/refund`, { reason: "not paid yet" })).body.status_code).toBe(60008);
    expect((await post("/orders/NOSUCHORDER/refund", { reason: "who knows" })).body.status_code).toBe(60003);
    const noReason = await post(`/orders/${open.orderNumber}/refund`, {});
    expect(noReason.body.status_code).toBe(10002);
    expect(noReason.body.status_msg).toContain("reason");
    expect(await t.db.adminAudit.count({ where: { target: `order:${open.orderNumber}` } })).toBe(0);
  });
});
