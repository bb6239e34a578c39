/**
 * Values read on hot paths (user info on every page load, an order polled by every open cashier),
 * kept in memory for a short TTL (bench/README.md).
 *
 * Rule: whatever writes what a value is read from — the business rules of packages/domain —
 * announces it after its transaction commits ("user.changed", "order.changed"), and the caches
 * plugin turns the announcement into `invalidate(key)` here, on every replica. A generation counter
 * closes the race where a read that started before the commit would put the old value back after the
 * invalidation; the TTL bounds any write path that forgets the rule. A value that turns stale on its
 * own at a known instant (a membership ending: `staleAt`) is never served past it.
 */
export class ReadCache<K, T> {
  private readonly entries = new Map<K, { value: T; cachedUntil: number }>();
  private readonly generations = new Map<K, number>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 50_000,
    /** epoch ms at which a value stops being true by itself (undefined: only the TTL applies) */
    private readonly staleAt: (value: T) => number | undefined = () => undefined,
  ) {}

  /** The value cached for `key` while it is fresh, else undefined (`get` loads it): a hit without a promise. */
  peek(key: K, now = Date.now()): T | undefined {
    const hit = this.entries.get(key);
    return hit && hit.cachedUntil > now ? hit.value : undefined;
  }

  async get(key: K, load: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.cachedUntil > now) return hit.value;
    const generation = this.generations.get(key) ?? 0;
    // Frozen: whoever reads it shares it (and the serializer reuses its JSON: lib/hot-path.ts).
    const value = freeze(await load());
    if ((this.generations.get(key) ?? 0) === generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { value, cachedUntil: Math.min(now + this.ttlMs, this.staleAt(value) ?? Infinity) });
    }
    return value;
  }

  invalidate(key: K): void {
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
    if (this.generations.size > 100_000) this.generations.clear();
  }
}

function freeze<T>(value: T): T {
  return value !== null && typeof value === "object" ? Object.freeze(value) : value;
}
