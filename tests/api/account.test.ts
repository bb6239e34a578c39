import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, signIn, type TestApp, uniquePhone } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function cookiesOf(res: { headers: Record<string, unknown> }): string[] {
  return [res.headers["set-cookie"] ?? []].flat() as string[];
}

describe("GET /account/login", () => {
  it("serves the iframe login page in zh by default and en on request", async () => {
    const zh = await t.http().get("/account/login?redir=/vip");
    expect(zh.status).toBe(200);
    expect(zh.headers["content-type"]).toContain("text/html");
    expect(zh.text).toContain("验证码登录");
    expect(zh.text).toContain('"login-success"');
    expect(zh.headers["content-security-policy"]).toContain("frame-ancestors 'self'");
    const en = await t.http().get("/account/login?lang=en");
    expect(en.text).toContain("Sign in to Yuelu");
  });

  it("does not let redir inject script into the page", async () => {
    const res = await t.http().get("/account/login").query({ redir: "/x</script><script>alert(1)</script>" });
    expect(res.text).not.toContain("</script><script>alert(1)");
  });
});

describe("SMS login", () => {
  it("sends a 6-digit code, returns it as devCode outside production, and signs in with it", async () => {
    const phone = uniquePhone();
    const sent = await t.http().post("/account/api/sms/send").send({ phone });
    expect(sent.body).toMatchObject({ status_code: 1, data: { sent: true, expiresIn: 300 } });
    // The test's SMS sender is not the console provider, so no devCode here.
    expect(sent.body.data.devCode).toBeUndefined();
    const code = t.sms.lastCode(phone);
    expect(code).toMatch(/^\d{6}$/);

    const res = await t.http().post("/account/api/login").send({ phone, code });
    expect(res.body.status_code).toBe(1);
    expect(res.body.data.userId).toBeGreaterThan(0);
    expect(res.body.data.userName).toBe(`用户${phone.slice(-4)}`);
    const cookies = cookiesOf(res);
    const sid = cookies.find((c) => c.startsWith("sid="));
    expect(sid).toMatch(/HttpOnly/i);
    expect(sid).toMatch(/SameSite=Lax/i);
    expect(cookies.find((c) => c.startsWith("userid="))).toContain(`userid=${res.body.data.userId}`);
    expect(cookies.find((c) => c.startsWith("userid="))).not.toMatch(/HttpOnly/i);
    expect(cookies.find((c) => c.startsWith("name="))).toBeDefined();

    const rows = await t.db.user.findMany({ where: { phone } });
    expect(rows).toHaveLength(1);
  });

  it("accepts the phone and code url-encoded, as a form post would send them", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").type("form").send({ phone });
    const res = await t
      .http()
      .post("/account/api/login")
      .type("form")
      .send({ phone, code: t.sms.lastCode(phone) });
    expect(res.body.status_code).toBe(1);
  });

  it("refuses a wrong code with 10004 and a used code the second time", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    const code = t.sms.lastCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    const bad = await t.http().post("/account/api/login").send({ phone, code: wrong });
    expect(bad.body.status_code).toBe(10004);
    expect(cookiesOf(bad)).toHaveLength(0);
    expect((await t.http().post("/account/api/login").send({ phone, code })).body.status_code).toBe(1);
    expect((await t.http().post("/account/api/login").send({ phone, code })).body.status_code).toBe(10004);
  });

  it("lets only one of two parallel logins consume the same code", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    const code = t.sms.lastCode(phone);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => t.http().post("/account/api/login").send({ phone, code })),
    );
    expect(results.filter((r) => r.body.status_code === 1)).toHaveLength(1);
    expect(await t.db.user.count({ where: { phone } })).toBe(1);
  });

  it("locks a code after 5 wrong tries", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    const code = t.sms.lastCode(phone);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await t.http().post("/account/api/login").send({ phone, code: wrong });
    expect((await t.http().post("/account/api/login").send({ phone, code })).body.status_code).toBe(10004);
  });

  it.each([
    [{}, "phone"],
    [{ phone: "12345" }, "phone"],
    [{ phone: 13800138000 }, "phone"],
    [{ phone: "1".repeat(100_000) }, "phone"],
    [{ phone: "13800138000' OR 1=1 --" }, "phone"],
    [{ phone: "<script>alert(1)</script>" }, "phone"],
  ])("answers 10002 naming the field for sms/send %#", async (body, field) => {
    const res = await t.http().post("/account/api/sms/send").send(body);
    expect(res.status).toBe(200);
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toContain(field);
    expect(res.body.status_msg).not.toMatch(/at .*\.ts:\d+/);
  });

  it("answers 10002 for a login without code or password, and for a malformed code", async () => {
    const phone = uniquePhone();
    const none = await t.http().post("/account/api/login").send({ phone });
    expect(none.body).toMatchObject({ status_code: 10002 });
    expect(none.body.status_msg).toContain("code");
    const bad = await t.http().post("/account/api/login").send({ phone, code: "12ab56" });
    expect(bad.body.status_code).toBe(10002);
  });

  it("answers 10002 for a body that is not JSON, without a stack trace", async () => {
    const res = await t.http().post("/account/api/login").set("content-type", "application/json").send("{not json");
    expect(res.body.status_code).toBe(10002);
    expect(JSON.stringify(res.body)).not.toContain("node_modules");
  });

  it("translates messages into English with lang=en", async () => {
    const res = await t.http().post("/account/api/sms/send?lang=en").send({});
    expect(res.body.status_msg).toMatch(/^Missing or invalid parameter: phone/);
    const zh = await t.http().post("/account/api/sms/send").send({});
    // Chinese all through: the field named in Chinese too, the reason translated, no English suffix.
    expect(zh.body.status_msg).toBe("缺少必要参数或参数错误：手机号 phone（必填）");
  });
});

describe("rate limits", () => {
  it("allows one SMS per phone per minute", async () => {
    const phone = uniquePhone();
    expect((await t.http().post("/account/api/sms/send").send({ phone })).body.status_code).toBe(1);
    const second = await t.http().post("/account/api/sms/send").send({ phone });
    expect(second.status).toBe(429);
    expect(second.body.status_code).toBe(10003);
    expect(t.sms.sent.filter((s) => s.phone === phone)).toHaveLength(1);
  });

  it("limits login attempts per phone", async () => {
    const phone = uniquePhone();
    const codes = [];
    for (let i = 0; i < 11; i++) {
      codes.push(
        (await t.http().post("/account/api/login").send({ phone, password: "wrong-password" })).body.status_code,
      );
    }
    expect(codes.slice(0, 10).every((c) => c === 10005)).toBe(true);
    expect(codes[10]).toBe(10003);
  });
});

describe("password login", () => {
  it("sets a password with a code login, then signs in with it; a wrong one is 10005", async () => {
    const phone = uniquePhone();
    await t.http().post("/account/api/sms/send").send({ phone });
    const first = await t
      .http()
      .post("/account/api/login")
      .send({ phone, code: t.sms.lastCode(phone), password: "s3cret-pass" });
    expect(first.body.status_code).toBe(1);
    const ok = await t.http().post("/account/api/login").send({ phone, password: "s3cret-pass" });
    expect(ok.body).toMatchObject({ status_code: 1, data: { userId: first.body.data.userId } });
    const bad = await t.http().post("/account/api/login").send({ phone, password: "not-the-pass" });
    expect(bad.body.status_code).toBe(10005);
    const unknown = await t.http().post("/account/api/login").send({ phone: uniquePhone(), password: "whatever-pass" });
    expect(unknown.body.status_code).toBe(10005);
  });
});

describe("sessions and cookies", () => {
  it("trusts only the signed sid: forged userid/name cookies grant nothing", async () => {
    const victim = await signIn(t);
    const forged = await t
      .http()
      .get("/voice_yuelu/api/v1/user/info")
      .set("Cookie", `userid=${victim.userId}; name=victim`);
    expect(forged.body.status_code).toBe(10001);
    const tampered = await t
      .http()
      .get("/voice_yuelu/api/v1/user/info")
      .set("Cookie", `sid=abc.def; userid=${victim.userId}`);
    expect(tampered.body.status_code).toBe(10001);
    // A real session with someone else's userid cookie still answers as the session's own user.
    const attacker = await signIn(t);
    const mixed = await t
      .http()
      .get("/voice_yuelu/api/v1/user/info")
      .set("Cookie", `${attacker.cookie.replace(/userid=\d+/, `userid=${victim.userId}`)}`);
    expect(mixed.body.data.userId).toBe(attacker.userId);
  });

  it("an unsigned copy of a valid sid token is refused", async () => {
    const user = await signIn(t);
    const signed = /sid=([^;]+)/.exec(user.cookie)?.[1] ?? "";
    const token = decodeURIComponent(signed).split(".").slice(0, -1).join(".");
    const res = await t.http().get("/voice_yuelu/api/v1/user/info").set("Cookie", `sid=${token}`);
    expect(res.body.status_code).toBe(10001);
  });
});

describe("logout", () => {
  it("ends the session, clears the cookies and redirects within the site", async () => {
    const user = await signIn(t);
    const res = await t.http().get("/account/logout?redir=/vip?x=1").set("Cookie", user.cookie);
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/vip?x=1");
    const cleared = cookiesOf(res);
    for (const name of ["sid", "userid", "name"]) {
      expect(cleared.find((c) => c.startsWith(`${name}=`))).toMatch(/Expires=Thu, 01 Jan 1970/);
    }
    const after = await t.http().get("/voice_yuelu/api/v1/user/info").set("Cookie", user.cookie);
    expect(after.body.status_code).toBe(10001);
  });

  it.each([
    "https://evil.example.com/",
    "//evil.example.com/x",
    "/\\evil.example.com",
    "javascript:alert(1)",
    "http://127.0.0.1.evil.com/",
  ])("refuses to redirect to another site: %s", async (redir) => {
    const res = await t.http().get("/account/logout").query({ redir });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/");
  });

  it("accepts an absolute URL on its own host", async () => {
    const res = await t
      .http()
      .get("/account/logout")
      .set("Host", "yuelu.test")
      .query({ redir: "http://yuelu.test/audio-list" });
    expect(res.headers.location).toBe("http://yuelu.test/audio-list");
  });
});

describe("dev-login", () => {
  it("signs in without SMS on localhost outside production", async () => {
    const phone = uniquePhone();
    const res = await t.http().get(`/account/dev-login?phone=${phone}&redir=/home`).set("Host", "localhost:8080");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/home");
    expect(cookiesOf(res).some((c) => c.startsWith("sid="))).toBe(true);
  });

  it("is not there for other hosts", async () => {
    const res = await t.http().get("/account/dev-login").set("Host", "yuelu.example.com");
    expect(res.status).toBe(404);
    expect(cookiesOf(res).some((c) => c.startsWith("sid="))).toBe(false);
  });
});

describe("dev-login in production", () => {
  it("is refused even on localhost", async () => {
    const prod = await createTestApp({ NODE_ENV: "production", COOKIE_SECRET: "x".repeat(40) });
    try {
      const res = await prod.http().get("/account/dev-login").set("Host", "localhost");
      expect(res.status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});
