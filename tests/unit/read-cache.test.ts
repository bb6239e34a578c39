import { describe, expect, it } from "vitest";
import { ReadCache } from "../../apps/api/src/lib/read-cache.ts";

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("ReadCache (user info)", () => {
  it("serves a cached value until the user is invalidated", async () => {
    const cache = new ReadCache<number, string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get(1, load)).toBe("v1");
    expect(await cache.get(1, load)).toBe("v1");
    cache.invalidate(1);
    expect(await cache.get(1, load)).toBe("v2");
    cache.invalidate(2);
    expect(await cache.get(1, load)).toBe("v2");
  });

  it("does not keep a value read before an invalidation that landed while it was loading", async () => {
    const cache = new ReadCache<number, string>();
    const slow = deferred<string>();
    const stale = cache.get(1, () => slow.promise);
    cache.invalidate(1); // the write committed meanwhile
    slow.resolve("old");
    expect(await stale).toBe("old");
    expect(await cache.get(1, async () => "new")).toBe("new");
  });

  it("expires entries after its TTL", async () => {
    const cache = new ReadCache<number, string>(1000);
    await cache.get(1, async () => "a", 0);
    expect(await cache.get(1, async () => "b", 999)).toBe("a");
    expect(await cache.get(1, async () => "c", 1001)).toBe("c");
  });

  it("never serves a value past the instant it turns stale by itself (a membership ending)", async () => {
    const cache = new ReadCache<number, { member: boolean; until: number }>(30_000, 100, (v) =>
      v.member ? v.until : undefined,
    );
    await cache.get(1, async () => ({ member: true, until: 5_000 }), 0);
    expect((await cache.get(1, async () => ({ member: false, until: 0 }), 4_999)).member).toBe(true);
    expect((await cache.get(1, async () => ({ member: false, until: 0 }), 5_000)).member).toBe(false);
  });
});
