import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";

/** API keys (docs/integrators.md): made in the web app, then `Authorization: Bearer` acts as the user. */

let t: TestApp;
let replica: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  replica = await createTestApp({}, { shareDatabaseWith: t });
});
afterAll(async () => {
  await replica?.close();
  await t?.close();
});

const api = (p: string) => `/voice_yuelu${p}`;

async function makeKey(who: SignedIn, name = "脚本") {
  const res = await t.http().post(api("/api/v1/api_keys/create")).set("Cookie", who.cookie).send({ name });
  expect(res.body.status_code, res.body.status_msg).toBe(1);
  return res.body.data as { id: number; name: string; key: string };
}

describe("API keys", () => {
  it("are shown once, listed without the key, and act as their owner on any call", async () => {
    const who = await signIn(t);
    const made = await makeKey(who, "nightly export");
    expect(made.key).toMatch(/^yl_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.apiKey.findUniqueOrThrow({ where: { id: made.id } });
    expect(row.keyHash).not.toContain(made.key);
    expect(JSON.stringify(row)).not.toContain(made.key.slice(3));

    const list = await t.http().get(api("/api/v1/api_keys/list")).set("Cookie", who.cookie);
    expect(list.body.data).toMatchObject({ total: 1, limit: 10 });
    expect(list.body.data.list[0]).toMatchObject({ id: made.id, name: "nightly export", lastUsedTime: 0 });
    expect(made.key.startsWith(list.body.data.list[0].prefix)).toBe(true);
    expect(JSON.stringify(list.body)).not.toContain(made.key);

    const info = await t.http().get(api("/api/v1/user/info")).set("Authorization", `Bearer ${made.key}`);
    expect(info.body.data.userId).toBe(who.userId);
    // a write works too, even sent from another site's page: a key is no ambient credential
    const folder = await t
      .http()
      .post(api("/api/v2/menu/create"))
      .set("Authorization", `Bearer ${made.key}`)
      .set("Origin", "https://elsewhere.example")
      .set("Sec-Fetch-Site", "cross-site")
      .send({ menuName: "来自脚本" });
    expect(folder.body.status_code, folder.body.status_msg).toBe(1);
    const folderRow = await t.db.folder.findFirstOrThrow({ where: { menuName: "来自脚本" } });
    expect(folderRow.userId).toBe(who.userId);
    // …while the same cross-site write with the cookie is refused
    const csrf = await t
      .http()
      .post(api("/api/v2/menu/create"))
      .set("Cookie", who.cookie)
      .set("Origin", "https://elsewhere.example")
      .set("Sec-Fetch-Site", "cross-site")
      .send({ menuName: "跨站" });
    expect(csrf.body.status_code).toBe(10007);

    const used = await t.http().get(api("/api/v1/api_keys/list")).set("Cookie", who.cookie);
    expect(used.body.data.list[0].lastUsedTime).toBeGreaterThan(0);
  });

  it("a wrong or malformed key is nobody, even beside a valid cookie", async () => {
    const who = await signIn(t);
    for (const header of ["Bearer yl_not-a-real-key-at-all", "Bearer ", "Bearer x"]) {
      const res = await t.http().get(api("/api/v1/user/info")).set("Cookie", who.cookie).set("Authorization", header);
      expect(res.body.status_code, header).toBe(10001);
    }
  });

  it("a revoked key stops at once on every node; only its owner can revoke it", async () => {
    const who = await signIn(t);
    const other = await signIn(t);
    const made = await makeKey(who);
    const bearer = `Bearer ${made.key}`;
    expect((await replica.http().get(api("/api/v1/user/info")).set("Authorization", bearer)).body.status_code).toBe(1);
    const stolen = await t
      .http()
      .post(api("/api/v1/api_keys/revoke"))
      .set("Cookie", other.cookie)
      .send({ id: made.id });
    expect(stolen.body.status_code).toBe(30001);
    const revoked = await t.http().post(api("/api/v1/api_keys/revoke")).set("Cookie", who.cookie).send({ id: made.id });
    expect(revoked.body).toMatchObject({ status_code: 1, data: { id: made.id } });
    for (const node of [t, replica]) {
      expect((await node.http().get(api("/api/v1/user/info")).set("Authorization", bearer)).body.status_code).toBe(
        10001,
      );
    }
    const again = await t.http().post(api("/api/v1/api_keys/revoke")).set("Cookie", who.cookie).send({ id: made.id });
    expect(again.body.status_code).toBe(30001);
    expect((await t.http().get(api("/api/v1/api_keys/list")).set("Cookie", who.cookie)).body.data.total).toBe(0);
  });

  it("at most 10 live keys, counted before compared under 15 parallel creates", async () => {
    const who = await signIn(t);
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        t
          .http()
          .post(api("/api/v1/api_keys/create"))
          .set("Cookie", who.cookie)
          .set("lang", "en")
          .send({ name: `k${i}` }),
      ),
    );
    const codes = answers.map((a) => a.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(10);
    expect(codes.filter((c) => c === 50006)).toHaveLength(5);
    expect(answers.find((a) => a.body.status_code === 50006)!.body.status_msg).toContain("at most 10 API keys");
    expect(await t.db.apiKey.count({ where: { userId: who.userId, revokedAt: null } })).toBe(10);
  });

  it("names are checked, and a key cannot open the operator console", async () => {
    const who = await signIn(t);
    for (const name of ["", "x".repeat(31)]) {
      const res = await t.http().post(api("/api/v1/api_keys/create")).set("Cookie", who.cookie).send({ name });
      expect(res.body.status_code).toBe(10002);
      expect(res.body.status_msg).toContain("name");
    }
    await setRole(t.domain, CLI_ACTOR, who.phone, "admin");
    const made = await makeKey(who);
    expect((await t.http().get(api("/admin/me")).set("Cookie", who.cookie)).body.status_code).toBe(1);
    expect((await t.http().get(api("/admin/me")).set("Authorization", `Bearer ${made.key}`)).body.status_code).toBe(
      10007,
    );
  });

  it("a key cannot make, list or revoke keys (10007): revoking a leaked key ends its access", async () => {
    const who = await signIn(t);
    const leaked = await makeKey(who, "leaked");
    const bearer = `Bearer ${leaked.key}`;
    const calls = {
      create: () => t.http().post(api("/api/v1/api_keys/create")).send({ name: "successor" }),
      list: () => t.http().get(api("/api/v1/api_keys/list")),
      revoke: () => t.http().post(api("/api/v1/api_keys/revoke")).send({ id: leaked.id }),
    };
    for (const [name, call] of Object.entries(calls)) {
      // with the user's cookie beside it too: the Bearer key is the caller, and it may not
      for (const cookie of ["", who.cookie]) {
        const res = await call().set("Authorization", bearer).set("Cookie", cookie).set("lang", "en");
        expect(res.body.status_code, name).toBe(10007);
        expect(res.body.data ?? null, name).toBeNull();
      }
    }
    expect(
      await t.db.apiKey.findMany({ where: { userId: who.userId }, select: { id: true, revokedAt: true } }),
    ).toEqual([{ id: leaked.id, revokedAt: null }]);
    expect((await t.db.apiKey.findUniqueOrThrow({ where: { id: leaked.id } })).scopes).toEqual(["api"]);
    // the key still does what it is for
    expect((await t.http().get(api("/api/v1/user/info")).set("Authorization", bearer)).body.status_code).toBe(1);

    // the owner, signed in, revokes it: its next call is nobody's
    const revoked = await t
      .http()
      .post(api("/api/v1/api_keys/revoke"))
      .set("Cookie", who.cookie)
      .send({ id: leaked.id });
    expect(revoked.body.status_code).toBe(1);
    // (the /voice_yuelu envelope says so with HTTP 200, as the SPA reads it; /v1 with HTTP 401)
    const after = await t.http().get(api("/api/v1/user/info")).set("Authorization", bearer);
    expect(after.body.status_code).toBe(10001);
    expect((await t.http().get("/v1/models").set("Authorization", bearer)).status).toBe(401);
  });

  it("a key row that claims more than a key may hold gets no more than 'api'", async () => {
    const who = await signIn(t);
    const made = await makeKey(who);
    await t.db.apiKey.update({ where: { id: made.id }, data: { scopes: ["api", "keys", "console"] } });
    const res = await t.http().get(api("/api/v1/api_keys/list")).set("Authorization", `Bearer ${made.key}`);
    expect(res.body.status_code).toBe(10007);
  });

  it("a disabled user's keys stop working", async () => {
    const who = await signIn(t);
    const made = await makeKey(who);
    await t.db.user.update({ where: { id: who.userId }, data: { disabledAt: new Date() } });
    const res = await t.http().get(api("/api/v1/user/info")).set("Authorization", `Bearer ${made.key}`);
    expect(res.body.status_code).toBe(10001);
  });
});
