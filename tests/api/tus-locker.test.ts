import { randomUUID } from "node:crypto";
import { ERRORS } from "@tus/utils";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisLocker } from "../../apps/api/src/modules/records/tus-locker.ts";

/**
 * The tus upload lock shared by API nodes (issue 31): two lockers with their own Redis connections stand for two
 * nodes. Real Redis (REDIS_URL), as in production.
 */
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `test-tus-${randomUUID().slice(0, 8)}`;
const connections: Redis[] = [];
let nodeA: RedisLocker;
let nodeB: RedisLocker;

beforeAll(async () => {
  const make = async () => {
    const redis = new Redis(REDIS_URL);
    connections.push(redis);
    const locker = new RedisLocker(redis, prefix);
    await locker.start();
    return locker;
  };
  nodeA = await make();
  nodeB = await make();
});

afterAll(async () => {
  await nodeA.close();
  await nodeB.close();
  const keys = await connections[0]!.keys(`${prefix}:*`);
  if (keys.length > 0) await connections[0]!.del(...keys);
  for (const redis of connections) await redis.quit();
});

const never = new AbortController().signal;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the tus lock across API nodes", () => {
  it("a request on another node asks the holder to let go, and gets the lock once it does", async () => {
    const id = randomUUID();
    const events: string[] = [];
    const held = nodeA.newLock(id);
    await held.lock(never, async () => {
      events.push("A asked to release");
      await sleep(100); // the holder's request ends (tus cancels it), then tus unlocks
      events.push("A unlocks");
      await held.unlock();
    });
    const waiting = nodeB.newLock(id);
    const started = Date.now();
    await waiting.lock(never, () => {});
    events.push("B holds");
    expect(events).toEqual(["A asked to release", "A unlocks", "B holds"]);
    expect(Date.now() - started).toBeLessThan(5_000);
    await waiting.unlock();
  });

  it("never lets two nodes hold the same upload at once", async () => {
    const id = randomUUID();
    let inside = 0;
    let most = 0;
    let done = 0;
    // every holder finishes its short work by itself; the release ask is ignored (the work is about to end anyway)
    const critical = async (locker: RedisLocker) => {
      const lock = locker.newLock(id);
      await lock.lock(never, () => {});
      inside += 1;
      most = Math.max(most, inside);
      await sleep(5 + Math.random() * 10);
      inside -= 1;
      done += 1;
      await lock.unlock();
    };
    await Promise.all(Array.from({ length: 16 }, (_, i) => critical(i % 2 === 0 ? nodeA : nodeB)));
    expect(done).toBe(16);
    expect(most).toBe(1);
  });

  it("gives up when the waiting request is cancelled", async () => {
    const id = randomUUID();
    const held = nodeA.newLock(id);
    await held.lock(never, () => {}); // a holder that does not let go
    const cancel = new AbortController();
    const waiting = nodeB.newLock(id).lock(cancel.signal, () => {});
    setTimeout(() => cancel.abort(), 200);
    await expect(waiting).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    await held.unlock();
  });

  it("keeps a lease, so a node that dies frees the upload by itself", async () => {
    const id = randomUUID();
    const held = nodeA.newLock(id);
    await held.lock(never, () => {});
    const ttl = await connections[0]!.pttl(`${prefix}:tus-lock:${id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(15_000);
    await held.unlock();
    expect(await connections[0]!.exists(`${prefix}:tus-lock:${id}`)).toBe(0);
  });

  it("an unlock after the lease passed to someone else leaves their lock alone", async () => {
    const id = randomUUID();
    const key = `${prefix}:tus-lock:${id}`;
    const stale = nodeA.newLock(id);
    await stale.lock(never, () => {});
    await connections[0]!.del(key); // the lease ran out (the node stalled)…
    const fresh = nodeB.newLock(id);
    await fresh.lock(never, () => {}); // …and another node took the upload
    await stale.unlock();
    expect(await connections[0]!.exists(key)).toBe(1);
    await fresh.unlock();
  });
});
