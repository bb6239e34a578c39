import { maskGiftCode } from "@yuelu/contracts";
import { CLI_ACTOR, csvCell, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";

/**
 * Gift codes in the operator console (docs/admin.md "Gift codes"): batches made once per name,
 * their usage, who redeemed, a CSV safe to open in a spreadsheet, and disabling (60004 from then on).
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
const as = (who: SignedIn | null, method: "get" | "post", p: string, body?: object) => {
  const call = t.http()[method](path(p)).set("lang", "en");
  if (who) call.set("cookie", who.cookie);
  return body ? call.send(body) : call;
};
const redeem = (who: SignedIn, packCode: string) =>
  as(who, "post", "/api/v1/gift_pack/gift_code_exchange", { packCode });

const spring = { batch: "spring-2099", kind: "beans", reward: 50, count: 3, maxUses: 2, expiresAt: "2099-01-31" };

describe("admin: gift code batches", () => {
  it("is the operator's: anonymous 10001, a user 10007, and nothing is made", async () => {
    expect((await as(null, "post", "/admin/gift-codes/batches", spring)).body.status_code).toBe(10001);
    expect((await as(user, "post", "/admin/gift-codes/batches", spring)).body.status_code).toBe(10007);
    expect((await as(user, "get", "/admin/gift-codes?batch=spring-2099")).body.status_code).toBe(10007);
    expect((await as(user, "get", "/admin/gift-codes/export?batch=spring-2099")).body.status_code).toBe(10007);
    expect(await t.db.giftCode.count()).toBe(0);
  });

  it("refuses bad batches naming the field, within GIFT_CODE_LIMITS", async () => {
    const cases: [object, string][] = [
      [{ ...spring, kind: "coins" }, "kind"],
      [{ ...spring, reward: 0 }, "reward"],
      [{ ...spring, reward: 1_000_001 }, "reward"],
      [{ ...spring, kind: "memberDays", reward: 3651 }, "reward"],
      [{ ...spring, kind: "cardMinutes", reward: 600_001 }, "reward"],
      [{ ...spring, count: 10_001 }, "count"],
      [{ ...spring, count: 0 }, "count"],
      [{ ...spring, maxUses: 0 }, "maxUses"],
      [{ ...spring, batch: "a b" }, "batch"],
      [{ ...spring, batch: "" }, "batch"],
      [{ ...spring, expiresAt: "2001-01-01" }, "expiresAt"],
      [{ ...spring, expiresAt: "soon" }, "expiresAt"],
    ];
    for (const [body, field] of cases) {
      const res = await as(admin, "post", "/admin/gift-codes/batches", body);
      expect(res.body.status_code, field).toBe(10002);
      expect(res.body.status_msg, field).toContain(field);
    }
    expect(await t.db.giftCode.count()).toBe(0);
  });

  it("creates a batch once per name, however often the create arrives, with one audit row", async () => {
    const results = await Promise.all([1, 2, 3].map(() => as(admin, "post", "/admin/gift-codes/batches", spring)));
    for (const res of results) expect(res.body.status_code).toBe(1);
    const codes = results[0]?.body.data.codes as string[];
    expect(codes).toHaveLength(3);
    for (const res of results) expect([...res.body.data.codes].sort()).toEqual([...codes].sort());
    expect(results.filter((r) => r.body.data.created)).toHaveLength(1);
    expect(await t.db.giftCode.count({ where: { batch: "spring-2099" } })).toBe(3);
    const log = await t.db.adminAudit.findMany({ where: { target: "gift-batch:spring-2099" }, orderBy: { id: "asc" } });
    // one creation; each repeat handed the codes out again, so it is audited as an export
    expect(log.map((l) => l.action)).toEqual(["gift.batch.create", "gift.batch.export", "gift.batch.export"]);
    expect(log[1]).toMatchObject({ actorId: admin.userId, after: { codes: 3, via: "create" } });
    expect(log[0]).toMatchObject({
      action: "gift.batch.create",
      actorId: admin.userId,
      after: { kind: "beans", reward: 50, count: 3, maxUses: 2 },
    });
    const row = await t.db.giftCode.findUniqueOrThrow({ where: { packCode: codes[0] } });
    expect(row).toMatchObject({ rewardType: 0, rewardNumber: 50, maxRedemptions: 2 });
    expect(row.expiresAt?.toISOString()).toBe("2099-01-31T15:59:59.000Z");
    const taken = await as(admin, "post", "/admin/gift-codes/batches", { ...spring, reward: 60 });
    expect(taken.body.status_code).toBe(10002);
    expect(taken.body.status_msg).toContain("batch");
  });

  it("lists batches and codes with their usage, and who redeemed a code", async () => {
    const cards = await as(admin, "post", "/admin/gift-codes/batches", {
      batch: "cards",
      kind: "cardMinutes",
      reward: 90,
      count: 2,
    });
    expect(cards.body.data.created).toBe(true);
    const [code] = (await t.db.giftCode.findMany({ where: { batch: "spring-2099" }, orderBy: { id: "asc" } })).map(
      (c) => c.packCode,
    );
    expect((await redeem(user, code!)).body.status_code).toBe(1);
    expect((await redeem(admin, code!)).body.status_code).toBe(1);

    const batches = await as(admin, "get", "/admin/gift-codes/batches?sort=batch&order=asc");
    expect(batches.body.status_code).toBe(1);
    expect(batches.body.data.total).toBe(2);
    expect(batches.body.data.items).toMatchObject([
      { batch: "cards", kind: "cardMinutes", reward: 90, rewardNumber: 5400, codes: 2, uses: 0, maxUses: 2 },
      {
        batch: "spring-2099",
        kind: "beans",
        reward: 50,
        codes: 3,
        redeemedCodes: 1,
        uses: 2,
        maxUses: 6,
        disabledCodes: 0,
        expiresAt: "2099-01-31T15:59:59.000Z",
      },
    ]);
    const byUse = await as(admin, "get", "/admin/gift-codes/batches?sort=uses&order=desc&pageSize=1");
    expect(byUse.body.data).toMatchObject({ total: 2, items: [{ batch: "spring-2099" }] });
    const found = await as(admin, "get", "/admin/gift-codes/batches?q=CARD");
    expect(found.body.data.items.map((b: { batch: string }) => b.batch)).toEqual(["cards"]);

    const list = await as(admin, "get", "/admin/gift-codes?batch=spring-2099&sort=redeemedCount&order=desc");
    expect(list.body.data.total).toBe(3);
    expect(list.body.data.items[0]).toMatchObject({
      packCode: maskGiftCode(code!),
      redeemedCount: 2,
      status: "usedUp",
    });
    const active = await as(admin, "get", "/admin/gift-codes?batch=spring-2099&status=active");
    expect(active.body.data.total).toBe(2);
    // a code someone holds is found whole (any case), never by its start
    const one = await as(admin, "get", `/admin/gift-codes?code=${code!.toLowerCase()}`);
    expect(one.body.data.items).toMatchObject([{ packCode: maskGiftCode(code!) }]);
    expect((await as(admin, "get", `/admin/gift-codes?code=${code!.slice(0, 6)}`)).body.data.total).toBe(0);

    const id = list.body.data.items[0].id as number;
    const who = await as(admin, "get", `/admin/gift-codes/${id}/redemptions?order=asc`);
    expect(who.body.data.total).toBe(2);
    expect(who.body.data.items.map((r: { userId: number }) => r.userId)).toEqual([user.userId, admin.userId]);
    expect(who.body.data.items[0]).toMatchObject({ phone: user.phone });
    expect((await as(admin, "get", "/admin/gift-codes/999999/redemptions")).body.status_code).toBe(30001);
  });

  it("lists codes masked, without an audit row; only the export gives them whole, audited once", async () => {
    const made = await as(admin, "post", "/admin/gift-codes/batches", {
      batch: "masked",
      kind: "beans",
      reward: 5,
      count: 4,
    });
    const codes = made.body.data.codes as string[];
    const audited = () => t.db.adminAudit.count({ where: { target: "gift-batch:masked" } });
    expect(await audited()).toBe(1); // its creation

    const list = await as(admin, "get", "/admin/gift-codes?batch=masked&pageSize=100");
    const listed = list.body.data.items.map((c: { packCode: string }) => c.packCode);
    expect(listed).toHaveLength(4);
    for (const shown of listed) expect(shown).toMatch(/^[A-Z2-9]{2}\*{4}[A-Z2-9]{2}$/);
    expect([...listed].sort()).toEqual(codes.map(maskGiftCode).sort());
    for (const code of codes) expect(JSON.stringify(list.body)).not.toContain(code);
    expect(await audited()).toBe(1);

    const csv = await t.http().get(path("/admin/gift-codes/export?batch=masked")).set("cookie", admin.cookie);
    expect(csv.status).toBe(200);
    for (const code of codes) expect(csv.text).toContain(`${code},masked,`);
    const exports = await t.db.adminAudit.findMany({
      where: { target: "gift-batch:masked", action: "gift.batch.export" },
    });
    expect(exports).toMatchObject([{ actorId: admin.userId, after: { codes: 4 } }]);
  });

  it("exports a batch as CSV that a spreadsheet cannot run, and audits the export", async () => {
    await as(admin, "post", "/admin/gift-codes/batches", { batch: "-danger", kind: "memberDays", reward: 7, count: 2 });
    const res = await t
      .http()
      .get(path("/admin/gift-codes/export?batch=-danger"))
      .set("cookie", admin.cookie)
      .buffer(true)
      .parse((r, done) => {
        let text = "";
        r.setEncoding("utf8");
        r.on("data", (chunk: string) => {
          text += chunk;
        });
        r.on("end", () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toContain('attachment; filename="gift-codes--danger.csv"');
    const lines = (res.body as string)
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe("code,batch,kind,reward,max uses,redeemed,status,expires at,created at");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^[A-Z2-9]{8},'-danger,memberDays,7,1,0,active,,/);
    const log = await t.db.adminAudit.findMany({
      where: { target: "gift-batch:-danger", action: "gift.batch.export" },
    });
    expect(log).toHaveLength(1);
    const missing = await as(admin, "get", "/admin/gift-codes/export?batch=nothing");
    expect(missing.body.status_code).toBe(30001);

    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\tx")).toBe("'\tx");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell(null)).toBe("");
  });

  it("disables a code and a batch: redeeming answers 60004, and enabling works again; all audited", async () => {
    const codes = (await t.db.giftCode.findMany({ where: { batch: "cards" }, orderBy: { id: "asc" } })).map((c) => c);
    const [first, second] = codes;
    const off = await as(admin, "post", `/admin/gift-codes/${first!.id}/disable`, { reason: "leaked" });
    expect(off.body).toMatchObject({ status_code: 1, data: { changed: 1 } });
    expect((await as(admin, "post", `/admin/gift-codes/${first!.id}/disable`, {})).body.data.changed).toBe(0);
    expect((await redeem(user, first!.packCode)).body.status_code).toBe(60004);
    expect(await t.db.adminAudit.findMany({ where: { target: `gift-code:${first!.id}` } })).toMatchObject([
      { action: "gift.code.disable", reason: "leaked", actorId: admin.userId },
    ]);

    const batch = await as(admin, "post", "/admin/gift-codes/batches/disable", { batch: "cards" });
    expect(batch.body.data.changed).toBe(1);
    expect((await redeem(user, second!.packCode)).body.status_code).toBe(60004);
    const listed = await as(admin, "get", "/admin/gift-codes/batches?q=cards");
    expect(listed.body.data.items[0]).toMatchObject({ disabledCodes: 2 });
    const status = await as(admin, "get", "/admin/gift-codes?batch=cards&status=disabled");
    expect(status.body.data.total).toBe(2);

    const on = await as(admin, "post", "/admin/gift-codes/batches/disable", { batch: "cards", disabled: false });
    expect(on.body.data.changed).toBe(2);
    expect((await redeem(user, second!.packCode)).body.status_code).toBe(1);
    const actions = (
      await t.db.adminAudit.findMany({ where: { target: "gift-batch:cards" }, orderBy: { id: "asc" } })
    ).map((a) => a.action);
    expect(actions).toEqual(["gift.batch.create", "gift.batch.disable", "gift.batch.enable"]);
    expect((await as(admin, "post", "/admin/gift-codes/999999/disable", {})).body.status_code).toBe(30001);
    expect((await as(admin, "post", "/admin/gift-codes/batches/disable", { batch: "none" })).body.status_code).toBe(
      30001,
    );
  });
});
