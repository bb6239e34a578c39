import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("help documents", () => {
  it("lists titles in the request's language without signing in", async () => {
    const zh = await t.http().get("/voice_yuelu/help_document/get_title");
    expect(zh.body.status_code).toBe(1);
    expect(zh.body.data.map((d: { slug: string }) => d.slug)).toEqual(
      expect.arrayContaining(["getting-started", "privacy", "agreement"]),
    );
    const en = await t.http().get("/voice_yuelu/help_document/get_title?lang=en");
    expect(en.body.data.find((d: { slug: string }) => d.slug === "privacy").title).toBe("Privacy policy");
  });

  it("answers one document by slug or id", async () => {
    const bySlug = await t.http().get("/voice_yuelu/help_document/get?slug=formats");
    expect(bySlug.body.data).toMatchObject({ slug: "formats", title: "支持哪些文件格式" });
    expect(bySlug.body.data.content).toContain("m4s");
    const byId = await t.http().get(`/voice_yuelu/help_document/get?id=${bySlug.body.data.id}&lang=en`);
    expect(byId.body.data.title).toBe("Supported file formats");
  });

  it("refuses bad or missing parameters and unknown documents", async () => {
    expect((await t.http().get("/voice_yuelu/help_document/get")).body).toMatchObject({ status_code: 10002 });
    const bad = await t.http().get("/voice_yuelu/help_document/get?slug=../../etc/passwd");
    expect(bad.body.status_code).toBe(10002);
    expect(bad.body.status_msg).toContain("slug");
    expect((await t.http().get("/voice_yuelu/help_document/get?slug=nope")).body.status_code).toBe(30001);
    expect((await t.http().get("/voice_yuelu/help_document/get?id=abc")).body.status_code).toBe(10002);
  });
});
