import { TradeStatus } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

/**
 * Nothing free on a public install: a production install started as the README says (NODE_ENV,
 * COOKIE_SECRET, nothing else) has no payment provider, so execute_payment refuses (60010) and makes
 * no order; the mock gateway, where an operator turns it on, lets only an order's owner drive it; and
 * outside production only the owner or a caller on this machine may.
 */

const api = (p: string) => `/voice_yuelu${p}`;
const PRODUCTION = { NODE_ENV: "production", COOKIE_SECRET: "a-production-secret-of-at-least-32-characters" };
/** A request that came through a proxy: not a caller on this machine, whatever the socket says. */
const FROM_ELSEWHERE = { "X-Forwarded-For": "203.0.113.7" };

/** Waits for the gateway's notification to settle the order (it is delivered in the background). */
async function settled(t: TestApp, orderNumber: string) {
  for (let i = 0; i < 100; i++) {
    const row = await t.db.order.findUnique({ where: { orderNumber } });
    if (row?.tradeStatus === TradeStatus.Paid) return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${orderNumber} was not settled`);
}

async function order(t: TestApp, who: SignedIn, goodsId = 8) {
  return (
    await t
      .http()
      .post(api("/api/v1/pay/execute_payment"))
      .set("Cookie", who.cookie)
      .send({ goodsId, payAgent: "alipay" })
  ).body;
}

describe("a production install with nothing configured", () => {
  let t: TestApp;
  let alice: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(PRODUCTION);
    alice = await signIn(t);
  });
  afterAll(async () => t?.close());

  it("has no payment provider: execute_payment answers 60010 in the user's language and creates no order", async () => {
    expect(t.config.PAYMENT_PROVIDER).toBe("none");
    const zh = await order(t, alice);
    expect(zh).toMatchObject({ status_code: 60010, status_msg: "本站尚未开通在线支付，请联系管理员", data: null });
    const en = await t
      .http()
      .post(api("/api/v1/pay/execute_payment?lang=en"))
      .set("Cookie", alice.cookie)
      .send({ goodsId: 8, payAgent: "alipay" });
    expect(en.body.status_msg).toBe("Online payment is not set up on this server: please contact the operator.");
    expect(await t.db.order.count({ where: { userId: alice.userId } })).toBe(0);
  });

  it("serves no mock gateway at all", async () => {
    expect((await t.http().post("/mock-alipay/api/YL20260101000000000001/pay").send({})).status).toBe(404);
    expect((await t.http().get("/mock-alipay/pay/YL20260101000000000001")).status).toBe(404);
  });

  it("tells strangers only whether it is ready (no hosts, pids, paths or versions)", async () => {
    const ready = await t.http().get("/readyz").set(FROM_ELSEWHERE);
    expect(ready.body).toEqual({ status: "ready", checks: expect.any(Object), workers: { live: 0 } });
    expect(JSON.stringify(ready.body)).not.toMatch(/ffprobe|hostname|\/usr|node_modules/);
  });

  it("never hands out dev-login or SMS codes", async () => {
    expect((await t.http().get("/account/dev-login?phone=13800000000&redir=/").set("Host", "127.0.0.1")).status).toBe(
      404,
    );
  });
});

describe("a production install whose operator turned the mock gateway on", () => {
  let t: TestApp;
  let alice: SignedIn;
  let mallory: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ ...PRODUCTION, PAYMENT_PROVIDER: "mock-alipay" });
    alice = await signIn(t);
    mallory = await signIn(t);
  });
  afterAll(async () => t?.close());

  it("lets nobody but the order's owner scan, pay or cancel it — not even a caller on this machine", async () => {
    const placed = await order(t, alice);
    expect(placed.status_code).toBe(1);
    const { orderNumber } = placed.data;
    for (const action of ["scan", "pay", "fail"]) {
      const anonymous = await t.http().post(`/mock-alipay/api/${orderNumber}/${action}`).send({});
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.status_code).toBe(10007);
      const stranger = await t
        .http()
        .post(`/mock-alipay/api/${orderNumber}/${action}`)
        .set("Cookie", mallory.cookie)
        .send({});
      expect(stranger.body.status_code).toBe(10007);
    }
    const paid = await t.http().post(`/mock-alipay/api/${orderNumber}/pay`).set("Cookie", alice.cookie).send({});
    expect(paid.body.data.status).toBe("TRADE_SUCCESS");
    expect((await settled(t, orderNumber)).userId).toBe(alice.userId);
    const unknown = await t
      .http()
      .post("/mock-alipay/api/YL20260101000000999999/pay")
      .set("Cookie", alice.cookie)
      .send({});
    expect(unknown.body.status_code).toBe(60003);
  });
});

describe("a development install", () => {
  let t: TestApp;
  let alice: SignedIn;
  let mallory: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    alice = await signIn(t);
    mallory = await signIn(t);
  });
  afterAll(async () => t?.close());

  it("lets the owner and a caller on this machine drive the mock gateway, and nobody else", async () => {
    const { orderNumber } = (await order(t, alice)).data;
    // a caller on this machine (the laptop's own browser, the tests)
    expect((await t.http().post(`/mock-alipay/api/${orderNumber}/scan`).send({})).body.data.status).toBe(
      "WAIT_BUYER_PAY",
    );
    // from elsewhere: a stranger, signed in or not, is refused; the owner is not
    const anon = await t.http().post(`/mock-alipay/api/${orderNumber}/fail`).set(FROM_ELSEWHERE).send({});
    expect(anon.body.status_code).toBe(10007);
    const stranger = await t
      .http()
      .post(`/mock-alipay/api/${orderNumber}/fail`)
      .set(FROM_ELSEWHERE)
      .set("Cookie", mallory.cookie)
      .send({});
    expect(stranger.body.status_code).toBe(10007);
    const owner = await t
      .http()
      .post(`/mock-alipay/api/${orderNumber}/pay`)
      .set(FROM_ELSEWHERE)
      .set("Cookie", alice.cookie)
      .send({});
    expect(owner.body.data.status).toBe("TRADE_SUCCESS");
    expect((await settled(t, orderNumber)).userId).toBe(alice.userId);
  });
});
