import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";

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

describe("operator console access", () => {
  it("answers 10001 to anonymous callers, 10007 to ordinary users, and the operator to an admin", async () => {
    expect((await t.http().get("/voice_yuelu/admin/me")).body.status_code).toBe(10001);
    const denied = await t.http().get("/voice_yuelu/admin/me").set("cookie", user.cookie).set("lang", "en");
    expect(denied.body).toMatchObject({ status_code: 10007, status_msg: "Access denied." });
    const me = await t.http().get("/voice_yuelu/admin/me").set("cookie", admin.cookie);
    expect(me.body.status_code).toBe(1);
    expect(me.body.data).toMatchObject({ userId: admin.userId, phone: admin.phone, role: "admin" });
  });

  it("writes the grant to the audit log, which the console reads and the database will not let anyone edit", async () => {
    const log = await t.http().get("/voice_yuelu/admin/audit?action=admin.").set("cookie", admin.cookie);
    expect(log.body.status_code).toBe(1);
    const grant = log.body.data.items.find((e: { target: string }) => e.target === `user:${admin.userId}`);
    expect(grant).toMatchObject({
      action: "admin.grant",
      ip: "cli",
      before: { role: "user" },
      after: { role: "admin" },
    });
    await expect(t.db.$executeRaw`UPDATE admin_audit SET reason = 'edited'`).rejects.toThrow(/append-only/);
    await expect(t.db.$executeRaw`DELETE FROM admin_audit`).rejects.toThrow(/append-only/);
  });

  it("refuses a revoked admin at the very next call, though the session itself is cached", async () => {
    const other = await signIn(t);
    await setRole(t.domain, CLI_ACTOR, other.phone, "admin");
    expect((await t.http().get("/voice_yuelu/admin/me").set("cookie", other.cookie)).body.status_code).toBe(1);
    // the CLI publishes nothing: the role is read again on each admin call
    await setRole({ db: t.db, events: { publish: async () => {} } }, CLI_ACTOR, other.phone, "user");
    expect((await t.http().get("/voice_yuelu/admin/me").set("cookie", other.cookie)).body.status_code).toBe(10007);
    // and ordinary calls still work for them
    expect((await t.http().get("/voice_yuelu/api/v1/user/info").set("cookie", other.cookie)).body.status_code).toBe(1);
  });

  it("lists every admin path under /voice_yuelu/admin in the OpenAPI document, each refused to ordinary users", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const adminPaths = Object.keys(doc.paths).filter((p) => p.includes("/admin/"));
    expect(adminPaths.length).toBeGreaterThan(1);
    for (const p of adminPaths) expect(p.startsWith("/voice_yuelu/admin/")).toBe(true);
    for (const p of adminPaths) {
      for (const method of Object.keys(doc.paths[p] ?? {})) {
        const url = p.replace(/\{[^}]+\}/g, "1");
        const call = t.http()[method as "get" | "post" | "put" | "patch" | "delete"](url);
        const res = await call.set("cookie", user.cookie).send({});
        expect(res.body.status_code, `${method} ${p}`).toBe(10007);
        const anon = await t.http()[method as "get" | "post" | "put" | "patch" | "delete"](url).send({});
        expect(anon.body.status_code, `${method} ${p} anonymous`).toBe(10001);
      }
    }
  });
});
