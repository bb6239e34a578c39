import { TradeStatus } from "@yuelu/contracts";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type MockAlipayGateway, signAlipayParams } from "../../apps/api/src/modules/payments/mock-alipay/gateway.ts";
import { createTestApp, devSession, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

/**
 * Commerce through the mock Alipay gateway (docs/commerce.md, ARCHITECTURE §4): the catalogue,
 * orders and their QR, polling, notifications (verified, idempotent, forged ones refused), expiry,
 * grants exactly once, and what the user sees afterwards.
 */

let t: TestApp;
let gateway: MockAlipayGateway;
let alice: SignedIn;
let bob: SignedIn;
/** What the gateway posted to the notification endpoint, and whether to let it through. */
let deliveries: Record<string, string>[] = [];
let deliver = true;

beforeAll(async () => {
  t = await createTestApp();
  gateway = t.app.payments as MockAlipayGateway;
  // The gateway's own delivery, through the app, with a switch: tests replay or withhold notifications.
  gateway.startDelivery(async (params) => {
    deliveries.push(params);
    if (!deliver) return "not now";
    return (await postNotification(params)).text;
  });
  alice = await signIn(t);
  bob = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  deliveries = [];
  deliver = true;
});

const api = (p: string) => `/voice_yuelu${p}`;
const get = (who: SignedIn, p: string) => t.http().get(api(p)).set("Cookie", who.cookie);
const post = (who: SignedIn, p: string, body: object) => t.http().post(api(p)).set("Cookie", who.cookie).send(body);
const postNotification = (params: Record<string, string>) =>
  t.http().post(api("/api/v1/pay/notify/alipay")).type("form").send(params);

async function newOrder(who: SignedIn, goodsId: number) {
  const res = await post(who, "/api/v1/pay/execute_payment", { goodsId, payAgent: "alipay", source: 0 });
  expect(res.body.status_code).toBe(1);
  return res.body.data as { orderNumber: string; payUrl: string; tradeStatus: number; expireTime: number };
}

async function tradeStatus(who: SignedIn, goodsId: number, orderNumber: string) {
  const res = await post(who, "/api/v1/pay/check_pay_result", { goodsId, orderNumber, payAgent: "alipay" });
  return res.body;
}

/** Lets check_pay_result ask the provider again at once (it asks at most every 3 s; the poll cache hears of it). */
async function forgetQuery(orderNumber: string) {
  const order = await t.db.order.update({ where: { orderNumber }, data: { queriedAt: null } });
  await t.events.publish({ type: "order.changed", userId: order.userId, orderNumber });
}

async function memberUntil(userId: number) {
  return (await t.db.user.findUniqueOrThrow({ where: { id: userId } })).memberEffectiveTime?.getTime() ?? 0;
}

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 5000): Promise<T> {
  const start = Date.now();
  let value = await probe();
  while (!ok(value) && Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, 50));
    value = await probe();
  }
  return value;
}

describe("the catalogue", () => {
  it("lists membership plans with exact prices and the 84 / 336 / '¥78 saved' labels", async () => {
    const res = await t.http().get(api("/api/v1/store/pay_goods_list?goodsType=1&source=0"));
    expect(res.body.status_code).toBe(1);
    const plans = res.body.data as Record<string, unknown>[];
    expect(plans.map((p) => p.goodsId)).toEqual([7, 8, 9]);
    expect(plans[1]).toMatchObject({
      goodsId: 8,
      price: 84,
      priceFen: 8400,
      discount: true,
      discountLabel: "84",
      currency: "¥",
    });
    expect(plans[2]).toMatchObject({
      goodsId: 9,
      price: 336,
      discountLabel: "336",
      savedFen: 7800,
      cornerLabel: "立省¥78",
    });
    expect(plans[0]).toMatchObject({ goodsId: 7, price: 34.5, discount: false, cornerLabel: "" });
    const en = await t.http().get(api("/api/v1/store/pay_goods_list?goodsType=1&lang=en"));
    expect(en.body.data[2]).toMatchObject({ goodsName: "Annual membership", cornerLabel: "¥78 saved" });
  });

  it("lists duration cards (duration in seconds) and, without goodsType, the shop's cash goods", async () => {
    const cards = (await t.http().get(api("/api/v1/store/pay_goods_list?goodsType=0"))).body.data as Record<
      string,
      number
    >[];
    expect(cards.map((c) => c.goodsType)).toEqual([0, 0, 0, 0, 0]);
    expect(cards[0]).toMatchObject({ goodsId: 1, duration: 3600, priceFen: 600 });
    const shop = (await t.http().get(api("/api/v1/store/pay_goods_list"))).body.data as Record<string, number>[];
    expect(shop.map((g) => g.goodsId)).toEqual([1, 2, 3]);
  });

  it.each([["2"], ["x"], ["-1"]])("goodsType=%s → 10002", async (goodsType) => {
    const res = await t.http().get(api(`/api/v1/store/pay_goods_list?goodsType=${goodsType}`));
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("goodsType");
  });
});

describe("execute_payment and check_pay_result", () => {
  it("needs sign-in; bad input names the field; unknown goods are 60002", async () => {
    const anon = await t.http().post(api("/api/v1/pay/execute_payment")).send({ goodsId: 8, payAgent: "alipay" });
    expect(anon.body.status_code).toBe(10001);
    expect((await post(alice, "/api/v1/pay/execute_payment", { payAgent: "alipay" })).body.status_code).toBe(10002);
    const wechat = await post(alice, "/api/v1/pay/execute_payment", { goodsId: 8, payAgent: "wechat" });
    expect(wechat.body).toMatchObject({ status_code: 10002 });
    expect(wechat.body.status_msg).toContain("payAgent");
    expect(
      (await post(alice, "/api/v1/pay/execute_payment", { goodsId: 999, payAgent: "alipay" })).body.status_code,
    ).toBe(60002);
  });

  it("gives an order whose payUrl is the mock cashier; scanning shows 0, paying settles it (1) and grants once", async () => {
    const before = await memberUntil(alice.userId);
    const order = await newOrder(alice, 8);
    expect(order.payUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1(:\\d+)?/mock-alipay/pay/${order.orderNumber}$`));
    expect(order.tradeStatus).toBe(-1);
    expect((await tradeStatus(alice, 8, order.orderNumber)).data).toEqual({ tradeStatus: TradeStatus.Created });

    const page = await t.http().get(`/mock-alipay/pay/${order.orderNumber}`).set("Accept-Language", "en-US");
    expect(page.status).toBe(200);
    expect(page.text).toContain("84.00");
    expect(page.text).toContain("季度会员"); // the subject as the order was placed, like Alipay shows it
    expect(page.text).toContain("Pay");
    expect((await t.http().post(`/mock-alipay/api/${order.orderNumber}/scan`).send({})).body.data.status).toBe(
      "WAIT_BUYER_PAY",
    );
    await forgetQuery(order.orderNumber);
    expect((await tradeStatus(alice, 8, order.orderNumber)).data.tradeStatus).toBe(TradeStatus.Scanned);

    expect((await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({})).body.data.status).toBe(
      "TRADE_SUCCESS",
    );
    const paid = await until(
      () => tradeStatus(alice, 8, order.orderNumber),
      (b) => b.data?.tradeStatus === TradeStatus.Paid,
    );
    expect(paid.data.tradeStatus).toBe(TradeStatus.Paid);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ out_trade_no: order.orderNumber, total_amount: "84.00", sign_type: "RSA2" });

    // 90 days, from max(now, the current end)
    const after = await memberUntil(alice.userId);
    expect(after - Math.max(before, Date.now() - 60_000)).toBeGreaterThanOrEqual(90 * 86_400_000 - 120_000);
    const info = await get(alice, "/api/v1/user/info");
    expect(info.body.data.isMember).toBe(true);
    // the receipt, listed in the day's purchases notice
    const message = await t.db.notification.findFirst({
      where: { userId: alice.userId, sourceRef: { startsWith: "notice:purchase:" } },
      orderBy: { sendTime: "desc" },
    });
    expect(message?.items).toContainEqual(
      expect.objectContaining({ ref: `order:${order.orderNumber}`, title: "会员开通成功" }),
    );
    expect(message?.notifyTextEn).toContain("Quarterly membership");
    // a second pay is refused by the gateway; the order stays paid
    expect((await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({})).body.status_code).toBe(60008);
  });

  it("another user's or an unknown order reveals nothing (60003), nor does a wrong goodsId", async () => {
    const order = await newOrder(alice, 7);
    expect((await tradeStatus(bob, 7, order.orderNumber)).status_code).toBe(60003);
    expect((await tradeStatus(alice, 8, order.orderNumber)).status_code).toBe(60003);
    expect((await tradeStatus(alice, 7, "YL00000000000000000000")).status_code).toBe(60003);
    const reissue = await post(bob, "/api/v1/pay/execute_payment", {
      goodsId: 7,
      payAgent: "alipay",
      orderNumber: order.orderNumber,
    });
    expect(reissue.body.status_code).toBe(60003);
  });

  it("two devices polling one order agree at every step", async () => {
    const phone = await devSession(t, bob.phone); // the same user, a second session
    const order = await newOrder(bob, 7);
    const both = async () => {
      await forgetQuery(order.orderNumber);
      const [a, b] = await Promise.all([
        tradeStatus(bob, 7, order.orderNumber),
        tradeStatus(phone, 7, order.orderNumber),
      ]);
      return [a.data.tradeStatus, b.data.tradeStatus];
    };
    expect(await both()).toEqual([-1, -1]);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/scan`).send({});
    expect(await both()).toEqual([0, 0]);
    deliver = false; // the notification is lost: polling settles the order by asking the provider
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    expect(await both()).toEqual([1, 1]);
    expect(await t.db.order.count({ where: { orderNumber: order.orderNumber, grantedAt: { not: null } } })).toBe(1);
  });

  it("a cancelled payment shows 3, and a new QR for the same order can then be paid", async () => {
    const order = await newOrder(alice, 1);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/fail`).send({});
    await forgetQuery(order.orderNumber);
    expect((await tradeStatus(alice, 1, order.orderNumber)).data.tradeStatus).toBe(TradeStatus.Closed);
    const again = await newOrderAgain(alice, 1, order.orderNumber);
    expect(again).toMatchObject({ orderNumber: order.orderNumber, tradeStatus: -1 });
    expect(new URL(again.payUrl).pathname).toBe(new URL(order.payUrl).pathname);
    const cardsBefore = await t.db.timeCard.count({ where: { userId: alice.userId, source: "purchase" } });
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    await until(
      () => tradeStatus(alice, 1, order.orderNumber),
      (b) => b.data?.tradeStatus === 1,
    );
    expect(deliveries.at(-1)?.out_trade_no).toBe(`${order.orderNumber}-2`);
    const card = await t.db.timeCard.findFirstOrThrow({ where: { userId: alice.userId, refId: order.orderNumber } });
    expect(card).toMatchObject({ seconds: 3600, remaining: 3600, source: "purchase" });
    // valid one year
    expect(card.expiresAt.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
    expect(await t.db.timeCard.count({ where: { userId: alice.userId, source: "purchase" } })).toBe(cardsBefore + 1);
  });
});

async function newOrderAgain(who: SignedIn, goodsId: number, orderNumber: string) {
  const res = await post(who, "/api/v1/pay/execute_payment", { goodsId, payAgent: "alipay", orderNumber });
  expect(res.body.status_code).toBe(1);
  return res.body.data as { orderNumber: string; payUrl: string; tradeStatus: number };
}

describe("notifications", () => {
  /** A paid trade whose notification was withheld, and the notification itself (validly signed). */
  async function paidWithheld(who: SignedIn, goodsId: number) {
    deliver = false;
    const order = await newOrder(who, goodsId);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    const params = await until(
      async () => deliveries.find((d) => d.out_trade_no === order.orderNumber),
      (d) => d !== undefined,
    );
    deliver = true;
    return { order, params: params! };
  }

  it("the same notification 20 times in parallel grants exactly once", async () => {
    const who = await signIn(t);
    const before = await memberUntil(who.userId);
    const { order, params } = await paidWithheld(who, 9);
    const answers = await Promise.all(Array.from({ length: 20 }, () => postNotification(params)));
    expect(answers.map((a) => a.text)).toEqual(Array(20).fill("success"));
    const days = (await memberUntil(who.userId)) - Math.max(before, Date.now());
    expect(days).toBeGreaterThan(364 * 86_400_000);
    expect(days).toBeLessThan(366 * 86_400_000 + 30 * 86_400_000); // once, not twenty times
    const notices = await t.db.notification.findMany({
      where: { userId: who.userId, sourceRef: { startsWith: "notice:purchase:" } },
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]!.items).toEqual([expect.objectContaining({ ref: `order:${order.orderNumber}` })]);
    expect(await t.db.paymentNotification.count({ where: { orderNumber: order.orderNumber } })).toBe(1);
  });

  it.each([
    [
      "a tampered amount (the signature no longer matches)",
      (p: Record<string, string>) => ({ ...p, total_amount: "0.01" }),
    ],
    ["a forged signature", (p: Record<string, string>) => ({ ...p, sign: Buffer.from("forged").toString("base64") })],
    ["no signature", (p: Record<string, string>) => ({ ...p, sign: "" })],
    ["another app id (re-signed)", (p: Record<string, string>) => resign({ ...p, app_id: "2021000000000000" })],
    ["a wrong amount, validly signed", (p: Record<string, string>) => resign({ ...p, total_amount: "1.00" })],
    [
      "an unknown order, validly signed",
      (p: Record<string, string>) => resign({ ...p, out_trade_no: "YL99999999999999999999" }),
    ],
  ])("%s is refused and grants nothing", async (_name, tamper) => {
    const who = await signIn(t);
    const { order, params } = await paidWithheld(who, 2);
    const res = await postNotification(tamper(params));
    expect(res.text).toBe("fail");
    const row = await t.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } });
    expect(row.grantedAt).toBeNull();
    expect(await t.db.timeCard.count({ where: { userId: who.userId, source: "purchase" } })).toBe(0);
    // the genuine one still settles it
    expect((await postNotification(params)).text).toBe("success");
    expect(await t.db.timeCard.count({ where: { userId: who.userId, source: "purchase" } })).toBe(1);
  });

  it("is retried with backoff until it is taken", async () => {
    const who = await signIn(t);
    deliver = false;
    const order = await newOrder(who, 3);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    await until(
      async () => deliveries.length,
      (n) => n >= 1,
    );
    // The refused delivery is recorded on the trade just after the notify request returns, so wait for the row.
    const trade = await until(
      () => t.db.mockAlipayTrade.findUniqueOrThrow({ where: { outTradeNo: order.orderNumber } }),
      (r) => r.notifyAttempts >= 1,
    );
    expect(trade).toMatchObject({ notifyAttempts: 1, notifiedAt: null });
    expect(trade.nextNotifyAt!.getTime() - Date.now()).toBeGreaterThan(1000); // the next try is ~2 s later
    deliver = true;
    const delivered = await until(
      () => t.db.mockAlipayTrade.findUniqueOrThrow({ where: { outTradeNo: order.orderNumber } }),
      (r) => r.notifiedAt !== null,
      8000,
    );
    expect(delivered.notifyAttempts).toBe(2);
    expect((await t.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } })).tradeStatus).toBe(1);
  });
});

describe("expiry", () => {
  async function expire(orderNumber: string) {
    const past = new Date(Date.now() - 1000);
    await t.db.order.update({ where: { orderNumber }, data: { expiresAt: past } });
    await t.db.mockAlipayTrade.updateMany({
      where: { outTradeNo: { startsWith: orderNumber } },
      data: { expiresAt: past },
    });
  }

  it("an expired order answers 3 and cannot be paid; a refresh re-issues a payable QR for the same order", async () => {
    const order = await newOrder(alice, 2);
    await expire(order.orderNumber);
    expect((await tradeStatus(alice, 2, order.orderNumber)).data.tradeStatus).toBe(TradeStatus.Closed);
    expect((await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({})).body.status_code).toBe(60008);
    const page = await t.http().get(`/mock-alipay/pay/${order.orderNumber}?lang=en`);
    expect(page.text).toContain("closed or has expired");

    const again = await newOrderAgain(alice, 2, order.orderNumber);
    expect(again.tradeStatus).toBe(-1);
    expect((await tradeStatus(alice, 2, order.orderNumber)).data.tradeStatus).toBe(-1);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    const paid = await until(
      () => tradeStatus(alice, 2, order.orderNumber),
      (b) => b.data?.tradeStatus === 1,
    );
    expect(paid.data.tradeStatus).toBe(1);
  });

  it("a late notification for an expired order still grants (the money moved) — once", async () => {
    const who = await signIn(t);
    deliver = false;
    const order = await newOrder(who, 1);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    const params = await until(async () => deliveries.find((d) => d.out_trade_no === order.orderNumber), Boolean);
    await t.db.order.update({
      where: { orderNumber: order.orderNumber },
      data: { tradeStatus: TradeStatus.Closed, closeReason: "expired", expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await postNotification(params!)).text).toBe("success");
    expect((await postNotification(params!)).text).toBe("success");
    const row = await t.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } });
    expect(row).toMatchObject({ tradeStatus: 1, closeReason: null });
    expect(await t.db.timeCard.count({ where: { userId: who.userId, source: "purchase" } })).toBe(1);
  });

  it("housekeeping closes unpaid orders past their expiry", async () => {
    const { runHousekeeping } = await import("../../apps/worker/src/jobs/housekeeping.ts");
    const order = await newOrder(bob, 3);
    await expire(order.orderNumber);
    const result = await runHousekeeping(t.domain);
    expect(result.expiredOrders).toBeGreaterThanOrEqual(1);
    expect(await t.db.order.findUniqueOrThrow({ where: { orderNumber: order.orderNumber } })).toMatchObject({
      tradeStatus: 3,
      closeReason: "expired",
    });
  });
});

describe("membership lapses on time", () => {
  it("isMember flips when memberEffectiveTime passes, even with user info cached", async () => {
    const who = await signIn(t);
    await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: new Date(Date.now() + 1500) } });
    await t.events.publish({ type: "user.changed", userId: who.userId });
    expect((await get(who, "/api/v1/user/info")).body.data.isMember).toBe(true);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await get(who, "/api/v1/user/info")).body.data.isMember).toBe(false);
    expect((await get(who, "/api/v1/user/storage_info")).body.data.auth).toBe(0);
  });
});

describe("orders, checkout and time cards", () => {
  it("pay_order_list pages the user's own orders; get_transfer_order resumes the latest open one", async () => {
    const who = await signIn(t);
    const first = await newOrder(who, 7);
    const second = await newOrder(who, 1);
    const list = await get(who, "/api/v1/store/pay_order_list?page=1&pageSize=10");
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.list.map((o: { orderNumber: string }) => o.orderNumber)).toEqual([
      second.orderNumber,
      first.orderNumber,
    ]);
    expect(list.body.data.list[1]).toMatchObject({
      goodsId: 7,
      amount: 34.5,
      amountFen: 3450,
      tradeStatus: -1,
      goodsType: 1,
    });
    expect(
      (await get(bob, "/api/v1/store/pay_order_list")).body.data.list.map(
        (o: { orderNumber: string }) => o.orderNumber,
      ),
    ).not.toContain(first.orderNumber);
    expect((await get(who, "/order/get_transfer_order")).body.data.order.orderNumber).toBe(second.orderNumber);
    expect((await get(who, "/api/v1/store/pay_order_list?pageSize=0")).body.status_code).toBe(10002);
  });

  it("get_checkout gives the price detail; order/checkout places the order", async () => {
    const detail = await get(alice, "/order/get_checkout?goodsId=2&lang=en");
    expect(detail.body.data).toMatchObject({
      quantity: 1,
      goodsAmountFen: 3000,
      discountFen: 500,
      totalFen: 2500,
      total: 25,
      goods: { goodsId: 2, goodsName: "5-hour card" },
    });
    expect(detail.body.data.notes.join(" ")).toMatch(/not refundable/);
    expect((await get(alice, "/order/get_checkout?goodsId=999")).body.status_code).toBe(60002);
    const placed = await post(alice, "/order/checkout", { goodsId: 2 });
    expect(placed.body.data).toMatchObject({ tradeStatus: -1, payUrl: expect.stringContaining("/mock-alipay/pay/") });
  });

  it("a bought duration card counts at once: storage info, assets, the card list and the detail", async () => {
    const who = await signIn(t);
    const before = (await get(who, "/api/v1/user/storage_info")).body.data.timeLimit as number;
    const order = await newOrder(who, 2);
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/pay`).send({});
    await until(
      () => tradeStatus(who, 2, order.orderNumber),
      (b) => b.data?.tradeStatus === 1,
    );
    expect((await get(who, "/api/v1/user/storage_info")).body.data.timeLimit).toBe(before + 5 * 3600);
    const cards = await get(who, "/api/v3/user/get_user_duration_card_list");
    const bought = cards.body.data.list.find((c: { source: string }) => c.source === "purchase");
    expect(bought).toMatchObject({ seconds: 18_000, remaining: 18_000, sourceName: "购买", expired: false });
    const detail = await get(who, "/api/v3/user/get_duration_detail?lang=en");
    expect(detail.body.data.remaining).toBe(before + 18_000);
    expect(detail.body.data.bySource).toContainEqual({ source: "purchase", sourceName: "Purchase", remaining: 18_000 });
    // another user sees none of it
    const theirs = await get(bob, "/api/v3/user/get_user_duration_card_list");
    expect(theirs.body.data.list.some((c: { cardId: number }) => c.cardId === bought.cardId)).toBe(false);
  });
});

/** Re-signs tampered params with the gateway's own key: only the field checks can refuse them then. */
function resign(params: Record<string, string>): Record<string, string> {
  const { sign: _sign, ...rest } = params;
  const keys = (gateway as unknown as { keys: { gatewayPrivateKey: string } }).keys;
  return { ...rest, sign: signAlipayParams(rest, keys.gatewayPrivateKey) };
}

describe("one cashier opening, one order (issue 30)", () => {
  it("asked 10 times at once and again later with the opening's key, it makes exactly one order", async () => {
    const who = await signIn(t);
    const clientKey = "opening-1b4e28ba:8";
    const asks = await Promise.all(
      Array.from({ length: 10 }, () =>
        post(who, "/api/v1/pay/execute_payment", { goodsId: 8, payAgent: "alipay", clientKey }),
      ),
    );
    expect(asks.every((a) => a.body.status_code === 1)).toBe(true);
    expect(new Set(asks.map((a) => a.body.data.orderNumber)).size).toBe(1);
    expect(new Set(asks.map((a) => a.body.data.payUrl))).toEqual(new Set([asks[0]!.body.data.payUrl]));
    expect(asks[0]!.body.data.payUrl).toContain("/mock-alipay/pay/");
    const later = await post(who, "/order/checkout", { goodsId: 8, clientKey });
    expect(later.body.data.orderNumber).toBe(asks[0]!.body.data.orderNumber);
    expect(await t.db.order.count({ where: { userId: who.userId } })).toBe(1);
    // the key names one goods; another opening is another order
    const other = await post(who, "/api/v1/pay/execute_payment", { goodsId: 9, payAgent: "alipay", clientKey });
    expect(other.body.status_code).toBe(10002);
    expect(other.body.status_msg).toContain("clientKey");
    const next = await post(who, "/api/v1/pay/execute_payment", {
      goodsId: 8,
      payAgent: "alipay",
      clientKey: "opening-77aa01:8",
    });
    expect(next.body.data.orderNumber).not.toBe(asks[0]!.body.data.orderNumber);
    expect(await t.db.order.count({ where: { userId: who.userId } })).toBe(2);
  });
});
