import { describe, expect, it } from "vitest";
import { UserInfoCache } from "../../apps/api/src/lib/user-info-cache.ts";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("UserInfoCache", () => {
  it("serves a cached value until the user is invalidated", async () => {
    const cache = new UserInfoCache<string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get(1, load)).toBe("v1");
    expect(await cache.get(1, load)).toBe("v1");
    cache.onEvent({ type: "user.changed", userId: 1 });
    expect(await cache.get(1, load)).toBe("v2");
    cache.onEvent({ type: "user.changed", userId: 2 });
    expect(await cache.get(1, load)).toBe("v2");
  });

  it("does not keep a value read before an invalidation that landed while it was loading", async () => {
    const cache = new UserInfoCache<string>();
    const slow = deferred<string>();
    const stale = cache.get(1, () => slow.promise);
    cache.onEvent({ type: "user.changed", userId: 1 }); // the write committed meanwhile
    slow.resolve("old");
    expect(await stale).toBe("old");
    expect(await cache.get(1, async () => "new")).toBe("new");
  });

  it("expires entries after its TTL", async () => {
    const cache = new UserInfoCache<string>(1000);
    await cache.get(1, async () => "a", 0);
    expect(await cache.get(1, async () => "b", 999)).toBe("a");
    expect(await cache.get(1, async () => "c", 1001)).toBe("c");
  });

  it("ignores session-only invalidations", async () => {
    const cache = new UserInfoCache<string>();
    await cache.get(1, async () => "a");
    cache.onEvent({ type: "session.ended", userId: 1, sessionId: "x" });
    expect(await cache.get(1, async () => "b")).toBe("a");
  });
});
