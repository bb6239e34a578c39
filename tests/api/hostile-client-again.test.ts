import { execFile } from "node:child_process";
import type { AddressInfo } from "node:net";
import net from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { BEAN_BALANCE_MAX } from "@yuelu/contracts";
import { AppError, createGiftCodes } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contentDisposition } from "../../apps/api/src/lib/content-disposition.ts";
import { createTestApp, devSession, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedUser } from "../helpers/factories.ts";

/**
 * What a hostile client found (issue 26), replayed: a `%` order number at the mock gateway, a body
 * trickled a byte at a time, too many connections, gift codes that overflow a column, a cross-site GET
 * that places an order, a right-to-left override in a default title, files under stray field names,
 * and details given away. Guess limits and avatars have their own files (guess-limits, avatar).
 */
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const api = (p: string) => `/voice_yuelu${p}`;
let t: TestApp;
let alice: SignedIn;
let origin = "";

beforeAll(async () => {
  t = await createTestApp({ BODY_STALL_SECONDS: "2", MAX_CONNECTIONS_PER_ADDRESS: "6" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  alice = await signIn(t);
});
afterAll(async () => {
  await t?.close();
});

describe("the mock gateway matches order numbers exactly", () => {
  it("a `%` or `_` order number finds nothing, even next to a re-issued order", async () => {
    const post = (p: string, body: object) => t.http().post(api(p)).set("Cookie", alice.cookie).send(body);
    const order = (await post("/api/v1/pay/execute_payment", { goodsId: 8, payAgent: "alipay" })).body.data;
    await t.http().post(`/mock-alipay/api/${order.orderNumber}/fail`).send({});
    // the poll that sees it closed (asked of the provider at once), then a new QR for the same order
    await t.db.order.update({ where: { orderNumber: order.orderNumber }, data: { queriedAt: null } });
    await t.events.publish({ type: "order.changed", userId: alice.userId, orderNumber: order.orderNumber });
    await post("/api/v1/pay/check_pay_result", { goodsId: 8, orderNumber: order.orderNumber, payAgent: "alipay" });
    const again = await post("/api/v1/pay/execute_payment", {
      goodsId: 8,
      payAgent: "alipay",
      orderNumber: order.orderNumber,
    });
    expect(again.body.status_code).toBe(1);
    // the re-issued trade is "<order>-1": a LIKE pattern would match it
    expect(await t.db.mockAlipayTrade.count({ where: { outTradeNo: { startsWith: `${order.orderNumber}-` } } })).toBe(
      1,
    );
    for (const probe of ["%25", "YL%25", "_%25", order.orderNumber.replace(/\d/g, "_")]) {
      const paid = await t.http().post(`/mock-alipay/api/${probe}/pay`).send({});
      expect(paid.body.status_code, probe).toBe(60003);
      const page = await t.http().get(`/mock-alipay/pay/${probe}`);
      expect(page.status, probe).toBe(404);
      expect(page.text).not.toContain("84.00");
    }
    const trade = await t.db.mockAlipayTrade.findFirstOrThrow({
      where: { outTradeNo: { startsWith: `${order.orderNumber}-` } },
    });
    expect(trade.status).toBe("WAIT_SCAN");
  });
});

describe("slow clients", () => {
  /** Opens a raw connection, sends `head`, then one byte a second; answers how it ended and when. */
  function trickle(head: string): Promise<{ ms: number; answer: string }> {
    return new Promise((resolve) => {
      const started = Date.now();
      const socket = net.connect(Number(origin.split(":")[1]), "127.0.0.1");
      let answer = "";
      let timer: NodeJS.Timeout | undefined;
      socket.on("data", (d) => (answer += d));
      socket.on("connect", () => {
        socket.write(head);
        timer = setInterval(() => socket.writable && socket.write("x"), 1000);
      });
      const done = () => {
        clearInterval(timer);
        resolve({ ms: Date.now() - started, answer });
      };
      socket.on("close", done);
      socket.on("error", () => {});
      setTimeout(() => socket.destroy(), 20_000);
    });
  }

  it("a feedback body announced at 10 GB is refused at once (413), unread", async () => {
    const { ms, answer } = await trickle(
      `POST ${api("/feedback/add")} HTTP/1.1\r\nHost: ${origin}\r\n` +
        "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 10737418240\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(ms).toBeLessThan(2000);
  });

  it("a body sent a byte a second is cut off after the stall window, with nothing stored", async () => {
    const before = await t.db.feedback.count();
    const { ms } = await trickle(
      `POST ${api("/feedback/add")} HTTP/1.1\r\nHost: ${origin}\r\n` +
        "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 100000\r\n\r\n--x\r\n",
    );
    expect(ms).toBeGreaterThanOrEqual(2000);
    expect(ms).toBeLessThan(6000);
    expect(await t.db.feedback.count()).toBe(before);
  }, 30_000);

  it("leaves requests made in-process alone (the mock gateway's notifications have no socket)", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: api("/api/v1/pay/notify/alipay"),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "out_trade_no=none",
    });
    expect(res.body).toBe("fail");
    await new Promise((r) => setTimeout(r, 3500)); // past the 2 s stall window: nothing may trip
    expect((await t.http().get("/healthz")).status).toBe(200);
  }, 10_000);

  it("one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections at once", async () => {
    const sockets = await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect(Number(origin.split(":")[1]), "127.0.0.1", () => resolve(s));
            s.on("error", () => {});
          }),
      ),
    );
    await new Promise((r) => setTimeout(r, 300));
    const open = sockets.filter((s) => !s.destroyed && s.readyState === "open");
    expect(open.length).toBeLessThanOrEqual(6);
    for (const s of sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 200));
    // freed again: an ordinary request gets through
    expect((await t.http().get("/healthz")).status).toBe(200);
  });
});

describe("gift codes the admin tool makes never crash redemption", () => {
  it("refuses figures past the limits where codes are made (10002 naming the figure)", async () => {
    for (const [rewardType, rewardNumber, field] of [
      [101, 99_999, "member days"],
      [0, 2_147_483_647, "beans"],
      [0, 99_999_999_999, "beans"],
      [1, 10_000 * 3600 + 1, "card seconds"],
    ] as const) {
      const error = await createGiftCodes(t, {
        count: 1,
        rewardType,
        rewardNumber,
        maxRedemptions: 1,
        batch: "x",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).field).toBe(field);
    }
  });

  it("the CLI says which figure is wrong, without a stack trace", async () => {
    const result = await run(
      "npx",
      ["tsx", "scripts/admin.ts", "gift-codes", "create", "--count", "1", "--beans", "99999999999"],
      { cwd: root, env: { ...process.env, DATABASE_URL: t.databaseUrl } },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("admin: beans: from 1 to 1,000,000");
    expect(result.stderr).not.toMatch(/at .*\.ts:\d+|Prisma/);
  }, 60_000);

  it("codes made before the limits redeem without a 500: a long membership works, a full balance is 60011", async () => {
    const who = await signIn(t);
    const exchange = (packCode: string) =>
      t.http().post(api("/api/v1/gift_pack/gift_code_exchange")).set("Cookie", who.cookie).send({ packCode });
    await t.db.giftCode.create({
      data: { packCode: "LONGMEMB", rewardType: 101, rewardNumber: 99_999, maxRedemptions: 5, batch: "old" },
    });
    expect((await exchange("LONGMEMB")).body.status_code).toBe(1);
    await t.db.giftCode.create({
      data: { packCode: "MANYBEAN", rewardType: 0, rewardNumber: 2_147_483_647, maxRedemptions: 5, batch: "old" },
    });
    const rich = await seedUser(t.db, { beans: 10 });
    const richSession = await devSession(t, rich.phone!);
    const refused = await t
      .http()
      .post(api("/api/v1/gift_pack/gift_code_exchange"))
      .set("Cookie", richSession.cookie)
      .send({ packCode: "MANYBEAN" });
    expect(refused.status).toBe(200);
    expect(refused.body.status_code).toBe(60011);
    const gift = await t.db.giftCode.findUniqueOrThrow({ where: { packCode: "MANYBEAN" } });
    expect(gift.redeemedCount).toBe(0);
    expect(await t.db.giftRedemption.count({ where: { giftCodeId: gift.id } })).toBe(0);
    expect((await t.db.user.findUniqueOrThrow({ where: { id: rich.id } })).beanBalance).toBe(10);
    expect(BEAN_BALANCE_MAX).toBe(2_147_483_647);
  });
});

describe("no state change on GET from another site", () => {
  it("GET order/checkout from another site's page is refused (10007) and places no order", async () => {
    const before = await t.db.order.count({ where: { userId: alice.userId } });
    const cross = await t
      .http()
      .get(api("/order/checkout?goodsId=5"))
      .set("Cookie", alice.cookie)
      .set("Sec-Fetch-Site", "cross-site");
    expect(cross.status).toBe(403);
    expect(cross.body.status_code).toBe(10007);
    expect(await t.db.order.count({ where: { userId: alice.userId } })).toBe(before);
    const own = await t
      .http()
      .get(api("/order/checkout?goodsId=5"))
      .set("Cookie", alice.cookie)
      .set("Sec-Fetch-Site", "same-origin");
    expect(own.body.status_code).toBe(1);
  });
});

describe("one title rule", () => {
  it("a default speech title drops a right-to-left override; every download name does too", async () => {
    const res = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", alice.cookie)
      .send({ text: "report\u202Egpj.exe and more text here" });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.title).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(res.body.data.title).toBe("reportgpj.exe and mo…");
    const header = contentDisposition("evil\u202Egpj.exe");
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe("evilgpj.exe");
    // an explicit title with one is refused, as before
    const explicit = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", alice.cookie)
      .send({ text: "hello", title: "a\u202Eb" });
    expect(explicit.body.status_code).toBe(10002);
  });
});

describe("smaller things", () => {
  it("feedback stores files only from the images field", async () => {
    const cats = (await t.http().get(api("/feedback/get_question_category"))).body.data;
    const child = cats.find((c: { level: number }) => c.level === 1);
    const png = Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
      "base64",
    );
    const before = await t.db.feedback.count();
    const res = await t
      .http()
      .post(api("/feedback/add"))
      .set("Cookie", alice.cookie)
      .field("categoryId", String(child.id))
      .field("content", "stray file")
      .attach("avatar", png, "a.png");
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain("avatar");
    expect(await t.db.feedback.count()).toBe(before);
  });

  it("/readyz gives strangers only readiness; callers on this machine get the details", async () => {
    const stranger = await t.http().get("/readyz").set("X-Forwarded-For", "203.0.113.9");
    expect(Object.keys(stranger.body).sort()).toEqual(["checks", "status", "workers"]);
    expect(JSON.stringify(stranger.body)).not.toMatch(/hostname|pid|workerId|path/);
    const local = await t.http().get("/readyz");
    expect(local.body.api.tools).toBeDefined();
  });

  it("the OpenAPI document lists the mock gateway only where it runs", async () => {
    const off = await createTestApp({ PAYMENT_PROVIDER: "none" });
    try {
      const doc = (await off.http().get(api("/docs/json"))).body;
      expect(Object.keys(doc.paths).some((p) => p.startsWith("/mock-alipay"))).toBe(false);
      expect(Object.keys(doc.paths)).toContain(api("/api/v1/pay/execute_payment"));
    } finally {
      await off.close();
    }
    const on = (await t.http().get(api("/docs/json"))).body;
    expect(Object.keys(on.paths).some((p) => p.startsWith("/mock-alipay"))).toBe(true);
  });
});
