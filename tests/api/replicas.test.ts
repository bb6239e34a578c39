import { EventBus, redisTransport } from "@yuelu/runtime";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/app.ts";

/**
 * Two API replicas on one database and one Redis: what one replica changes must not be served
 * stale from the other's caches (sessions, user info).
 */
const withRedis = Boolean(process.env.REDIS_URL);
if (!withRedis) console.warn("\n*** REDIS_URL is not set: the cross-replica cache tests cannot run. ***\n");

let a: TestApp;
let b: TestApp;
beforeAll(async () => {
  a = await createTestApp();
  b = await createTestApp({}, { shareDatabaseWith: a });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

async function eventually<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 2000): Promise<T> {
  const start = Date.now();
  let value = await read();
  while (!ok(value) && Date.now() - start < timeoutMs) {
    await new Promise((r) => setTimeout(r, 20));
    value = await read();
  }
  return value;
}

/** GET user/info on replica b, as the given session. */
function userInfoOnB(cookie: string) {
  return b
    .http()
    .get("/voice_yuelu/api/v1/user/info")
    .set("Cookie", cookie)
    .then((r) => r.body);
}

describe.runIf(withRedis)("two replicas sharing Redis", () => {
  it("a nickname changed on one replica shows on the other", async () => {
    const user = await signIn(a);
    const info = () => userInfoOnB(user.cookie).then((body) => body.data.nickName as string);
    expect(await info()).toMatch(/^用户/); // now cached on b
    await a.http().post("/voice_yuelu/api/v1/user/update_info").set("Cookie", user.cookie).send({ nickName: "新名字" });
    expect(await eventually(info, (n) => n === "新名字")).toBe("新名字");
  });

  it("a logout on one replica ends the session on the other", async () => {
    const user = await signIn(a);
    const status = () => userInfoOnB(user.cookie).then((body) => body.status_code as number);
    expect(await status()).toBe(1);
    await a.http().get("/account/logout").set("Cookie", user.cookie);
    expect(await eventually(status, (c) => c === 10001)).toBe(10001);
  });

  it("an account deletion on one replica answers 10006 on the other", async () => {
    const user = await signIn(a);
    const status = () => userInfoOnB(user.cookie).then((body) => body.status_code as number);
    expect(await status()).toBe(1);
    await a.http().post("/voice_yuelu/api/v3/user/delete_account").set("Cookie", user.cookie);
    expect(await eventually(status, (c) => c === 10006)).toBe(10006);
  });
});

describe.runIf(withRedis)("a worker process's changes reach the API replicas", () => {
  it("an account purged by housekeeping in a worker (its own event bus) is signed out on every replica at once", async () => {
    const user = await signIn(a);
    const status = () => userInfoOnB(user.cookie).then((body) => body.status_code as number);
    expect(await status()).toBe(1); // b now holds the session and the user info in its caches
    // the deletion came due long ago (written directly: no event, as if requested in another era)
    await a.db.user.update({
      where: { id: user.userId },
      data: { deleteRequestedAt: new Date(Date.now() - 30 * 86_400_000) },
    });
    const redis = new Redis(process.env.REDIS_URL!);
    const workerEvents = new EventBus(redisTransport(redis, `${a.prefix}:events`));
    try {
      const result = await runHousekeeping({ ...a.domain, events: workerEvents });
      expect(result.purgedAccounts).toBeGreaterThanOrEqual(1);
      // without the worker's "user.changed", b would answer from its caches for up to a minute
      expect(await eventually(status, (c) => c === 10001, 1000)).toBe(10001);
    } finally {
      await redis.quit();
    }
  });
});
