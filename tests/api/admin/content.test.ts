import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";

/**
 * Help documents and feedback in the operator console (docs/admin.md "Help documents", "Feedback"):
 * documents created once per slug, edited, deleted; feedback listed with its screenshots (only
 * operators can open them), marked handled, and replied to once, into the user's message centre.
 */

let t: TestApp;
let admin: SignedIn;
let alice: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  alice = await signIn(t);
  await setRole(t.domain, CLI_ACTOR, admin.phone, "admin");
});
afterAll(async () => {
  await t?.close();
});

const path = (p: string) => `/voice_yuelu${p}`;
const as = (who: SignedIn | null, method: "get" | "post" | "patch" | "delete", p: string, body?: object) => {
  const call = t.http()[method](path(p)).set("lang", "en");
  if (who) call.set("cookie", who.cookie);
  return body ? call.send(body) : call;
};
const auditOf = (target: string) => t.db.adminAudit.findMany({ where: { target }, orderBy: { id: "asc" } });

const HOSTILE = [
  "First line",
  "<script>window.__pwned = 1</script>",
  "[click](javascript:alert(1)) <img src=x onerror=alert(1)>",
  "1. a step",
].join("\n");
const doc = {
  slug: "refunds",
  title: "退款说明",
  titleEn: "Refunds",
  content: HOSTILE,
  contentEn: "Purchases are non-refundable.",
  sort: 20,
};

describe("admin: help documents", () => {
  it("is the operator's: anonymous 10001, a user 10007, and nothing is made", async () => {
    expect((await as(null, "post", "/admin/help", doc)).body.status_code).toBe(10001);
    expect((await as(alice, "post", "/admin/help", doc)).body.status_code).toBe(10007);
    expect((await as(alice, "delete", "/admin/help/1")).body.status_code).toBe(10007);
    expect(await t.db.helpDocument.count({ where: { slug: "refunds" } })).toBe(0);
  });

  it("lists the documents, paged and sorted", async () => {
    const res = await as(admin, "get", "/admin/help?sort=slug&order=asc&pageSize=2");
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.items).toHaveLength(2);
    const all = await t.db.helpDocument.findMany({ orderBy: { slug: "asc" } });
    expect(res.body.data.total).toBe(all.length);
    expect(res.body.data.items[0]).toMatchObject({ slug: all[0]?.slug, content: all[0]?.content });
    const found = await as(admin, "get", "/admin/help?q=privacy");
    expect(found.body.data.items.map((d: { slug: string }) => d.slug)).toContain("privacy");
  });

  it("refuses bad documents naming the field", async () => {
    const cases: [object, string][] = [
      [{ ...doc, slug: "Bad Slug" }, "slug"],
      [{ ...doc, slug: "../etc" }, "slug"],
      [{ ...doc, title: "" }, "title"],
      [{ ...doc, titleEn: "x".repeat(101) }, "titleEn"],
      [{ ...doc, content: "" }, "content"],
      [{ ...doc, contentEn: "a\u0000b" }, "contentEn"],
      [{ ...doc, sort: "first" }, "sort"],
    ];
    for (const [body, field] of cases) {
      const res = await as(admin, "post", "/admin/help", body);
      expect(res.body.status_code, field).toBe(10002);
      expect(res.body.status_msg, field).toContain(field);
    }
  });

  it("creates a document once per slug; the help page gets its text verbatim, to show as text", async () => {
    const results = await Promise.all([1, 2, 3].map(() => as(admin, "post", "/admin/help", doc)));
    for (const res of results) expect(res.body.status_code).toBe(1);
    const id = results[0]?.body.data.id as number;
    for (const res of results) expect(res.body.data.id).toBe(id);
    expect(await auditOf(`help:${id}`)).toMatchObject([{ action: "help.create", after: { slug: "refunds" } }]);
    // The server stores and serves the text as typed; the help page renders it as text nodes, never
    // HTML (apps/web features/help: help-center.test.tsx proves <script>, onerror and javascript: stay inert).
    const page = await t.http().get(path("/help_document/get?slug=refunds"));
    expect(page.body.data).toMatchObject({ id, title: "退款说明", content: HOSTILE });
    expect(page.headers["content-type"]).toContain("application/json");
    const taken = await as(admin, "post", "/admin/help", { ...doc, title: "另一个" });
    expect(taken.body.status_code).toBe(10002);
    expect(taken.body.status_msg).toContain("slug");
  });

  it("edits a document (audited with before and after); a taken slug is refused", async () => {
    const id = (await t.db.helpDocument.findUniqueOrThrow({ where: { slug: "refunds" } })).id;
    const res = await as(admin, "patch", `/admin/help/${id}`, { titleEn: "Refund policy", sort: 21 });
    expect(res.body.data).toMatchObject({ id, titleEn: "Refund policy", sort: 21, slug: "refunds" });
    expect((await auditOf(`help:${id}`)).at(-1)).toMatchObject({
      action: "help.update",
      before: { titleEn: "Refunds", sort: 20 },
      after: { titleEn: "Refund policy", sort: 21 },
    });
    const en = await t.http().get(path("/help_document/get?slug=refunds&lang=en"));
    expect(en.body.data.title).toBe("Refund policy");
    const clash = await as(admin, "patch", `/admin/help/${id}`, { slug: "privacy" });
    expect(clash.body.status_code).toBe(10002);
    expect(clash.body.status_msg).toContain("slug");
    expect((await as(admin, "patch", "/admin/help/999999", { sort: 1 })).body.status_code).toBe(30001);
  });

  it("deletes a document: gone from the help page, audited with what it was; deleting again is no error", async () => {
    const id = (await t.db.helpDocument.findUniqueOrThrow({ where: { slug: "refunds" } })).id;
    expect((await as(admin, "delete", `/admin/help/${id}`)).body.data).toEqual({ deleted: true });
    expect((await as(admin, "delete", `/admin/help/${id}`)).body.data).toEqual({ deleted: false });
    expect((await t.http().get(path("/help_document/get?slug=refunds"))).body.status_code).toBe(30001);
    expect((await auditOf(`help:${id}`)).at(-1)).toMatchObject({ action: "help.delete", before: { slug: "refunds" } });
  });
});

const png = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

async function report(who: SignedIn | null, categoryId: number, content: string, images = 0): Promise<number> {
  const call = t.http().post(path("/feedback/add"));
  if (who) call.set("cookie", who.cookie);
  call.field("categoryId", String(categoryId)).field("content", content).field("contact", "wx: abc");
  for (let i = 0; i < images; i++) call.attach("images", png, `${i}.png`);
  const res = await call;
  expect(res.body.status_code).toBe(1);
  return res.body.data.id as number;
}

describe("admin: feedback", () => {
  let withShots: number;
  let visitors: number;
  beforeAll(async () => {
    withShots = await report(alice, 22, "上传总是失败", 2);
    visitors = await report(null, 1, "希望支持更多格式");
  });

  it("is the operator's: anonymous 10001, a user 10007 — screenshots included", async () => {
    expect((await as(null, "get", "/admin/feedback")).body.status_code).toBe(10001);
    expect((await as(alice, "get", "/admin/feedback")).body.status_code).toBe(10007);
    // not even the author opens a screenshot through the console; no user call serves them
    expect((await as(alice, "get", `/admin/feedback/${withShots}/images/0`)).body.status_code).toBe(10007);
    expect((await as(null, "get", `/admin/feedback/${withShots}/images/0`)).body.status_code).toBe(10001);
    expect((await as(alice, "post", `/admin/feedback/${withShots}/reply`, { text: "x" })).body.status_code).toBe(10007);
  });

  it("lists feedback, filtered by handled and category, with the category path and the screenshots", async () => {
    const res = await as(admin, "get", "/admin/feedback?handled=false");
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.total).toBe(2);
    expect(res.body.data.items[0]).toMatchObject({ id: visitors, userId: null, phone: "", images: [] });
    expect(res.body.data.items[1]).toMatchObject({
      id: withShots,
      userId: alice.userId,
      phone: alice.phone,
      category: "问题反馈 / 上传失败",
      content: "上传总是失败",
      contact: "wx: abc",
      handledAt: null,
      reply: "",
      images: [
        `/voice_yuelu/admin/feedback/${withShots}/images/0`,
        `/voice_yuelu/admin/feedback/${withShots}/images/1`,
      ],
    });
    const byCategory = await as(admin, "get", "/admin/feedback?categoryId=1");
    expect(byCategory.body.data.items.map((f: { id: number }) => f.id)).toEqual([visitors]);
    const one = await as(admin, "get", `/admin/feedback/${withShots}`);
    expect(one.body.data).toMatchObject({ id: withShots, category: "问题反馈 / 上传失败" });
    expect((await as(admin, "get", "/admin/feedback/999999")).body.status_code).toBe(30001);
  });

  it("serves a screenshot to the operator, as an image that cannot run anything", async () => {
    const res = await t
      .http()
      .get(path(`/admin/feedback/${withShots}/images/1`))
      .set("cookie", admin.cookie)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("image/png");
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(Buffer.compare(res.body as Buffer, png)).toBe(0);
    expect((await as(admin, "get", `/admin/feedback/${withShots}/images/2`)).body.status_code).toBe(20003);
    expect((await as(admin, "get", `/admin/feedback/${visitors}/images/0`)).body.status_code).toBe(20003);
  });

  it("marks feedback handled and not handled again, audited", async () => {
    const on = await as(admin, "post", `/admin/feedback/${visitors}/handle`, {});
    expect(on.body.data.handledAt).not.toBeNull();
    expect((await as(admin, "get", "/admin/feedback?handled=true")).body.data.items).toMatchObject([{ id: visitors }]);
    const off = await as(admin, "post", `/admin/feedback/${visitors}/handle`, { handled: false });
    expect(off.body.data.handledAt).toBeNull();
    expect((await auditOf(`feedback:${visitors}`)).map((a) => a.action)).toEqual([
      "feedback.handle",
      "feedback.unhandle",
    ]);
  });

  it("replies once into the user's message centre, however many copies of the reply arrive, and marks it handled", async () => {
    const reply = { text: "已修复，请再试一次。", textEn: "Fixed: please try again." };
    const bad = await as(admin, "post", `/admin/feedback/${withShots}/reply`, { text: "" });
    expect(bad.body.status_code).toBe(10002);
    expect(bad.body.status_msg).toContain("text");

    const results = await Promise.all(
      [1, 2, 3].map(() => as(admin, "post", `/admin/feedback/${withShots}/reply`, reply)),
    );
    for (const res of results) expect(res.body.status_code).toBe(1);
    expect(results.filter((r) => r.body.data.sent)).toHaveLength(1);
    expect(results[0]?.body.data.feedback).toMatchObject({ reply: reply.text });
    expect(results[0]?.body.data.feedback.handledAt).not.toBeNull();

    const messages = await t.db.notification.findMany({ where: { sourceRef: `feedback:${withShots}` } });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ userId: alice.userId });
    const inbox = await as(alice, "post", "/notify/get_list", { page: 1, pageSize: 9999 });
    const mine = inbox.body.data.find((m: { notifyId: number }) => m.notifyId === messages[0]?.notifyId);
    expect(mine).toMatchObject({ notifyTitle: "Reply to your feedback" });
    expect(mine.notifyText).toContain("Fixed: please try again.");
    expect(mine.notifyText).toContain("上传总是失败");
    expect(await t.db.adminAudit.count({ where: { target: `feedback:${withShots}`, action: "feedback.reply" } })).toBe(
      1,
    );

    const other = await as(admin, "post", `/admin/feedback/${withShots}/reply`, { text: "另一个回复" });
    expect(other.body.status_code).toBe(10002);
    expect(other.body.status_msg).toContain("text");
    expect(await t.db.notification.count({ where: { sourceRef: `feedback:${withShots}` } })).toBe(1);
  });

  it("keeps the reply to a visitor's feedback, with nobody to message", async () => {
    const res = await as(admin, "post", `/admin/feedback/${visitors}/reply`, { text: "谢谢建议" });
    expect(res.body.data).toMatchObject({ sent: false, feedback: { reply: "谢谢建议" } });
    expect(res.body.data.feedback.handledAt).not.toBeNull();
    expect((await auditOf(`feedback:${visitors}`)).at(-1)).toMatchObject({
      action: "feedback.reply",
      after: { messaged: false },
    });
  });
});
