import { CLI_ACTOR, setRole } from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../../helpers/app.ts";

/**
 * An operator's messages (docs/admin.md "Messages"): to everyone or to one user, sent once per
 * requestId however many copies arrive at once, listed with how many read them, audited.
 */

let t: TestApp;
let admin: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t);
  alice = await signIn(t);
  bob = await signIn(t);
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
const inbox = async (who: SignedIn) =>
  (await as(who, "post", "/notify/get_list", { page: 1, pageSize: 9999 })).body.data as {
    notifyId: number;
    notifyTitle: string;
    notifyText: string;
    senderName: string;
  }[];

const notice = {
  requestId: "notice-0001",
  audience: "all",
  title: "维护通知",
  text: "今晚 22:00 维护一小时。",
  titleEn: "Maintenance",
  textEn: "One hour of maintenance from 22:00 tonight.",
};

describe("admin: messages", () => {
  it("is the operator's: anonymous 10001, a user 10007, and nothing is sent", async () => {
    expect((await as(null, "post", "/admin/messages", notice)).body.status_code).toBe(10001);
    expect((await as(alice, "post", "/admin/messages", notice)).body.status_code).toBe(10007);
    expect((await as(alice, "get", "/admin/messages")).body.status_code).toBe(10007);
    expect(await t.db.notification.count({ where: { sourceRef: { startsWith: "admin:" } } })).toBe(0);
  });

  it("refuses bad messages naming the field", async () => {
    const cases: [object, string][] = [
      [{ ...notice, requestId: undefined }, "requestId"],
      [{ ...notice, requestId: "short" }, "requestId"],
      [{ ...notice, audience: "some" }, "audience"],
      [{ ...notice, title: "" }, "title"],
      [{ ...notice, text: "x".repeat(2001) }, "text"],
      [{ ...notice, titleEn: "a\u202Eb" }, "titleEn"],
      [{ ...notice, audience: "user" }, "userId"],
      [{ ...notice, audience: "user", phone: "123" }, "phone"],
      [{ ...notice, userId: alice.userId }, "userId"],
    ];
    for (const [body, field] of cases) {
      const res = await as(admin, "post", "/admin/messages", body);
      expect(res.body.status_code, field).toBe(10002);
      expect(res.body.status_msg, field).toContain(field);
    }
    const nobody = await as(admin, "post", "/admin/messages", { ...notice, audience: "user", userId: 99_999_999 });
    expect(nobody.body.status_code).toBe(30001);
  });

  it("broadcasts once per requestId, however many copies arrive at once; everyone sees it in their language", async () => {
    const results = await Promise.all([1, 2, 3, 4].map(() => as(admin, "post", "/admin/messages", notice)));
    for (const res of results) expect(res.body.status_code).toBe(1);
    const ids = new Set(results.map((r) => r.body.data.notifyId));
    expect(ids.size).toBe(1);
    expect(results.filter((r) => r.body.data.created)).toHaveLength(1);
    expect(await t.db.notification.count({ where: { sourceRef: "admin:notice-0001" } })).toBe(1);
    const log = await t.db.adminAudit.findMany({ where: { action: "message.broadcast" } });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ target: "all", actorId: admin.userId, after: { title: "维护通知" } });

    for (const who of [alice, bob]) {
      expect((await inbox(who)).find((m) => m.notifyId === [...ids][0])).toMatchObject({
        notifyTitle: "Maintenance",
        notifyText: "One hour of maintenance from 22:00 tonight.",
        senderName: "Yuelu",
      });
    }
  });

  it("sends to one user by phone or id, once per requestId; nobody else sees it", async () => {
    const toAlice = {
      ...notice,
      requestId: "alice-0001",
      audience: "user",
      phone: alice.phone,
      titleEn: "",
      textEn: "",
    };
    const results = await Promise.all([1, 2, 3].map(() => as(admin, "post", "/admin/messages", toAlice)));
    const notifyId = results[0]?.body.data.notifyId as number;
    for (const res of results) expect(res.body.data.notifyId).toBe(notifyId);
    expect(await t.db.notification.count({ where: { sourceRef: "admin:alice-0001" } })).toBe(1);
    // no English: the English reader sees the Chinese
    expect((await inbox(alice)).find((m) => m.notifyId === notifyId)).toMatchObject({ notifyTitle: "维护通知" });
    expect((await inbox(bob)).find((m) => m.notifyId === notifyId)).toBeUndefined();
    const byId = await as(admin, "post", "/admin/messages", {
      ...notice,
      requestId: "bob-00000001",
      audience: "user",
      userId: bob.userId,
      sender: "客服",
    });
    expect(byId.body.data.created).toBe(true);
    expect((await inbox(bob)).find((m) => m.notifyId === byId.body.data.notifyId)).toMatchObject({
      senderName: "客服",
    });
    expect(await t.db.adminAudit.count({ where: { action: "message.send" } })).toBe(2);
  });

  it("lists what was sent, newest first, with how many read it out of how many", async () => {
    const broadcastId = (await t.db.notification.findFirstOrThrow({ where: { sourceRef: "admin:notice-0001" } }))
      .notifyId;
    await as(alice, "post", "/notify/read_msg", { notifyId: broadcastId });
    await as(bob, "post", "/notify/read_msg", { notifyId: broadcastId });
    const late = await signIn(t); // joined after the broadcast: not counted among its recipients
    await as(late, "post", "/notify/read_msg", { notifyId: broadcastId });

    const list = await as(admin, "get", "/admin/messages");
    expect(list.body.status_code).toBe(1);
    expect(list.body.data.total).toBe(3);
    const sent = list.body.data.items as { notifyId: number; audience: string; reads: number; recipients: number }[];
    expect(sent.map((m) => m.audience)).toEqual(["user", "user", "all"]);
    expect(sent.find((m) => m.notifyId === broadcastId)).toMatchObject({
      audience: "all",
      userId: null,
      reads: 3,
      recipients: 3, // admin, alice, bob
      title: "维护通知",
      titleEn: "Maintenance",
    });
    expect(sent[1]).toMatchObject({ audience: "user", phone: alice.phone, reads: 0, recipients: 1 });
    const onlyAll = await as(admin, "get", "/admin/messages?audience=all");
    expect(onlyAll.body.data.total).toBe(1);
    const ofBob = await as(admin, "get", `/admin/messages?userId=${bob.userId}`);
    expect(ofBob.body.data.items).toMatchObject([{ sender: "客服", userId: bob.userId }]);
  });
});
