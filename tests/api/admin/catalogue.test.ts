import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";

/**
 * The catalogue in the operator console (docs/admin.md "Catalogue"): pay goods and shop goods,
 * listed, created, edited, disabled and reordered, each change audited; a price change is what the
 * cashier shows and the next order charges, while orders placed before keep their amount.
 */

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  user = await signIn(t);
  await setRole(t.domain, CLI_ACTOR, admin.phone, "admin");
});
afterAll(async () => {
  await t?.close();
});

const path = (p: string) => `/voice_yuelu${p}`;
const as = (who: SignedIn | null, method: "get" | "post" | "patch", p: string, body?: object) => {
  const call = t.http()[method](path(p)).set("lang", "en");
  if (who) call.set("cookie", who.cookie);
  return body ? call.send(body) : call;
};
const auditOf = (target: string) => t.db.adminAudit.findMany({ where: { target }, orderBy: { id: "asc" } });

async function payOrder(who: SignedIn, goodsId: number) {
  const placed = await as(who, "post", "/api/v1/pay/execute_payment", { goodsId, payAgent: "alipay", source: 0 });
  expect(placed.body.status_code).toBe(1);
  return placed.body.data.orderNumber as string;
}

const newCard = {
  goodsId: 50,
  goodsName: "2小时时长卡",
  goodsNameEn: "2-hour card",
  priceFen: 1100,
  originalPriceFen: 1200,
  goodsType: 0,
  duration: 7200,
  sort: 9,
};

describe("admin: pay goods", () => {
  it("is the operator's: anonymous 10001, a user 10007", async () => {
    expect((await as(null, "get", "/admin/goods/pay")).body.status_code).toBe(10001);
    expect((await as(user, "get", "/admin/goods/pay")).body.status_code).toBe(10007);
    expect((await as(user, "post", "/admin/goods/pay", newCard)).body.status_code).toBe(10007);
    expect((await as(user, "patch", "/admin/goods/pay/1", { priceFen: 1 })).body.status_code).toBe(10007);
    expect((await t.db.payGoods.findUniqueOrThrow({ where: { goodsId: 1 } })).priceFen).toBe(600);
  });

  it("lists the goods paged, sorted and filtered on the server", async () => {
    const plans = await as(admin, "get", "/admin/goods/pay?goodsType=1&sort=sort&order=asc");
    expect(plans.body.status_code).toBe(1);
    expect(plans.body.data).toMatchObject({ total: 3, page: 1, pageSize: 20 });
    expect(plans.body.data.items.map((g: { goodsId: number }) => g.goodsId)).toEqual([7, 8, 9]);
    expect(plans.body.data.items[2]).toMatchObject({ priceFen: 33600, originalPriceFen: 41400, memberDays: 365 });
    const page = await as(admin, "get", "/admin/goods/pay?pageSize=2&page=2&sort=priceFen&order=desc");
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.total).toBe(8);
    const named = await as(admin, "get", "/admin/goods/pay?q=annual");
    expect(named.body.data.items.map((g: { goodsId: number }) => g.goodsId)).toEqual([9]);
    const bad = await as(admin, "get", "/admin/goods/pay?sort=amount");
    expect(bad.body.status_code).toBe(10002);
    expect(bad.body.status_msg).toContain("sort");
  });

  it("refuses bad goods naming the field", async () => {
    const cases: [object, string][] = [
      [{ ...newCard, priceFen: 0 }, "priceFen"],
      [{ ...newCard, priceFen: 12.5 }, "priceFen"],
      [{ ...newCard, priceFen: 100_000_000 }, "priceFen"],
      [{ ...newCard, originalPriceFen: 1000 }, "originalPriceFen"],
      [{ ...newCard, goodsName: "" }, "goodsName"],
      [{ ...newCard, goodsNameEn: "x".repeat(61) }, "goodsNameEn"],
      [{ ...newCard, goodsType: 5 }, "goodsType"],
      [{ ...newCard, duration: 0 }, "duration"],
      [{ ...newCard, memberDays: 30 }, "memberDays"],
      [{ ...newCard, goodsType: 1, duration: 0 }, "memberDays"],
    ];
    for (const [body, field] of cases) {
      const res = await as(admin, "post", "/admin/goods/pay", body);
      expect(res.body.status_code, field).toBe(10002);
      expect(res.body.status_msg, field).toContain(field);
    }
    const edit = await as(admin, "patch", "/admin/goods/pay/2", { originalPriceFen: 100 });
    expect(edit.body).toMatchObject({ status_code: 10002 });
    expect(edit.body.status_msg).toContain("originalPriceFen");
    expect((await as(admin, "patch", "/admin/goods/pay/999", { priceFen: 100 })).body.status_code).toBe(60002);
    expect(await t.db.payGoods.count({ where: { goodsId: 50 } })).toBe(0);
  });

  it("creates goods once under their id, however often the create arrives, with one audit row", async () => {
    const results = await Promise.all([1, 2, 3].map(() => as(admin, "post", "/admin/goods/pay", newCard)));
    for (const res of results) expect(res.body.status_code).toBe(1);
    expect(results[0]?.body.data).toMatchObject({ ...newCard, enabled: true, orders: 0, currency: "¥" });
    const log = await auditOf("goods:50");
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ action: "goods.create", actorId: admin.userId, after: { priceFen: 1100 } });
    const taken = await as(admin, "post", "/admin/goods/pay", { ...newCard, priceFen: 900 });
    expect(taken.body.status_code).toBe(10002);
    expect(taken.body.status_msg).toContain("goodsId");
    const cards = (await as(null, "get", "/api/v1/store/pay_goods_list?goodsType=0")).body.data as {
      goodsId: number;
    }[];
    expect(cards.map((g) => g.goodsId)).toContain(50);
  });

  it("charges a changed price from the next order on; orders placed before keep theirs", async () => {
    const before = await payOrder(user, 1);
    expect((await t.http().post(`/mock-alipay/api/${before}/pay`).send({})).body.status_code).toBe(1);
    // the cashier's poll asks the provider (not asked before): the order is paid
    const poll = { goodsId: 1, orderNumber: before, payAgent: "alipay" };
    let status = -1;
    for (let i = 0; i < 100 && status !== 1; i++) {
      status = (await as(user, "post", "/api/v1/pay/check_pay_result", poll)).body.data?.tradeStatus;
      if (status !== 1) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(1);
    const open = await payOrder(admin, 1);

    const changed = await as(admin, "patch", "/admin/goods/pay/1", { priceFen: 550 });
    expect(changed.body.status_code).toBe(1);
    expect(changed.body.data).toMatchObject({
      goodsId: 1,
      priceFen: 550,
      originalPriceFen: 600,
      orders: 2,
      paidOrders: 1,
    });
    const log = await auditOf("goods:1");
    expect(log.at(-1)).toMatchObject({
      action: "goods.price",
      actorId: admin.userId,
      actorPhone: admin.phone,
      before: { priceFen: 600 },
      after: { priceFen: 550 },
    });

    const cashier = (await as(user, "get", "/api/v1/store/pay_goods_list?goodsType=0")).body.data as {
      goodsId: number;
      priceFen: number;
      discount: boolean;
    }[];
    expect(cashier.find((g) => g.goodsId === 1)).toMatchObject({ priceFen: 550, discount: true });
    const after = await payOrder(user, 1);
    const amount = async (orderNumber: string) =>
      (await t.db.order.findUniqueOrThrow({ where: { orderNumber } })).amountFen;
    expect(await amount(after)).toBe(550);
    expect(await amount(before)).toBe(600);
    expect(await amount(open)).toBe(600);
  });

  it("records only what changed, and a no-op edit writes nothing", async () => {
    const count = (await auditOf("goods:2")).length;
    const same = await as(admin, "patch", "/admin/goods/pay/2", { priceFen: 2500, goodsName: "5小时时长卡" });
    expect(same.body.status_code).toBe(1);
    expect(await auditOf("goods:2")).toHaveLength(count);
    await as(admin, "patch", "/admin/goods/pay/2", { goodsNameEn: "Five-hour card", priceFen: 2500 });
    expect((await auditOf("goods:2")).at(-1)).toMatchObject({
      action: "goods.update",
      before: { goodsNameEn: "5-hour card" },
      after: { goodsNameEn: "Five-hour card" },
    });
  });

  it("disables goods: the cashier no longer lists or sells them, and enables them again", async () => {
    const off = await as(admin, "patch", "/admin/goods/pay/3", { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false });
    const cards = (await as(null, "get", "/api/v1/store/pay_goods_list?goodsType=0")).body.data as {
      goodsId: number;
    }[];
    expect(cards.map((g) => g.goodsId)).not.toContain(3);
    const refused = await as(user, "post", "/api/v1/pay/execute_payment", {
      goodsId: 3,
      payAgent: "alipay",
      source: 0,
    });
    expect(refused.body.status_code).toBe(60002);
    expect((await auditOf("goods:3")).at(-1)).toMatchObject({ before: { enabled: true }, after: { enabled: false } });
    const disabled = await as(admin, "get", "/admin/goods/pay?enabled=false");
    expect(disabled.body.data.items.map((g: { goodsId: number }) => g.goodsId)).toEqual([3]);
    await as(admin, "patch", "/admin/goods/pay/3", { enabled: true });
    expect(
      (await as(user, "post", "/api/v1/pay/execute_payment", { goodsId: 3, payAgent: "alipay" })).body.status_code,
    ).toBe(1);
  });

  it("reorders goods: the cashier shows the new order", async () => {
    const res = await as(admin, "post", "/admin/goods/pay/reorder", { goodsIds: [9, 8, 7] });
    expect(res.body.data).toEqual([
      { goodsId: 9, sort: 1 },
      { goodsId: 8, sort: 2 },
      { goodsId: 7, sort: 3 },
    ]);
    const plans = (await as(null, "get", "/api/v1/store/pay_goods_list?goodsType=1")).body.data as {
      goodsId: number;
    }[];
    expect(plans.map((g) => g.goodsId)).toEqual([9, 8, 7]);
    expect((await auditOf("goods")).at(-1)).toMatchObject({
      action: "goods.reorder",
      before: { 9: 3, 7: 1 },
      after: { 9: 1, 7: 3 },
    });
    const unknown = await as(admin, "post", "/admin/goods/pay/reorder", { goodsIds: [9, 12345] });
    expect(unknown.body.status_code).toBe(10002);
    expect(unknown.body.status_msg).toContain("goodsIds");
  });
});

describe("admin: shop goods", () => {
  it("lists the bean goods with their redeems", async () => {
    const res = await as(admin, "get", "/admin/goods/shop?sort=sort&order=asc");
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.total).toBe(4);
    expect(res.body.data.items[1]).toMatchObject({ goodsId: 102, originalCoin: 600, exchangeCoin: 500, purchases: 0 });
    expect((await as(user, "get", "/admin/goods/shop")).body.status_code).toBe(10007);
  });

  it("changes a bean price: the shop shows it, a redeem at the old price is refused, and it is audited", async () => {
    const bad = await as(admin, "patch", "/admin/goods/shop/102", { exchangeCoin: 700 });
    expect(bad.body.status_code).toBe(10002);
    expect(bad.body.status_msg).toContain("originalCoin");
    const res = await as(admin, "patch", "/admin/goods/shop/102", { exchangeCoin: 450 });
    expect(res.body.data).toMatchObject({ exchangeCoin: 450, discount: true });
    const shop = await as(user, "post", "/api/v1/store/goods_list", { page: 1, pageSize: 9999 });
    expect(shop.body.data.list.find((g: { goodsId: number }) => g.goodsId === 102)).toMatchObject({
      exchangeCoin: 450,
    });
    const stale = await as(user, "post", "/api/v1/store/purchase_goods", {
      goodsId: 102,
      exchangeAmount: 1,
      coinNumber: 500,
    });
    expect(stale.body.status_code).toBe(10002);
    expect((await auditOf("shop:102")).at(-1)).toMatchObject({
      action: "shop.price",
      before: { exchangeCoin: 500 },
      after: { exchangeCoin: 450 },
    });
  });

  it("creates shop goods (validated, once), disables and reorders them", async () => {
    const goods = {
      goodsId: 105,
      goodsName: "10小时时长卡",
      goodsNameEn: "10-hour card",
      duration: 36_000,
      originalCoin: 6000,
      exchangeCoin: 4000,
      discount: true,
      goodsPicPath: "/static/rewards/5h.png",
    };
    const bad: [object, string][] = [
      [{ ...goods, exchangeCoin: 0 }, "exchangeCoin"],
      [{ ...goods, goodsPicPath: "javascript:alert(1)" }, "goodsPicPath"],
      [{ ...goods, goodsName: "  " }, "goodsName"],
      [{ ...goods, originalCoin: 3000 }, "originalCoin"],
    ];
    for (const [body, field] of bad) {
      const res = await as(admin, "post", "/admin/goods/shop", body);
      expect(res.body.status_code, field).toBe(10002);
      expect(res.body.status_msg, field).toContain(field);
    }
    const [a, b] = await Promise.all([1, 2].map(() => as(admin, "post", "/admin/goods/shop", goods)));
    expect(a?.body.data).toMatchObject({ ...goods, effectiveTime: 90 * 86_400, enabled: true });
    expect(b?.body.data).toMatchObject({ goodsId: 105 });
    expect(await auditOf("shop:105")).toHaveLength(1);
    await as(admin, "patch", "/admin/goods/shop/101", { enabled: false });
    await as(admin, "post", "/admin/goods/shop/reorder", { goodsIds: [105, 104, 103, 102, 101] });
    const shop = await as(user, "post", "/api/v1/store/goods_list", { page: 1, pageSize: 9999 });
    expect(shop.body.data.list.map((g: { goodsId: number }) => g.goodsId)).toEqual([105, 104, 103, 102]);
  });
});
