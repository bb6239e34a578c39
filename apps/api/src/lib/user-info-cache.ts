import type { DomainEvent } from "@yuelu/runtime";

/**
 * User info by user id, read on every page load (bench/README.md).
 *
 * Rule: whatever writes `users` or `welcome_gifts` (the business rules of packages/domain) publishes
 * "user.changed" after its transaction commits. A generation counter closes the race where a read that started before the
 * commit would put the old value back after the invalidation; the TTL bounds any write path that
 * forgets the rule. A value that turns stale on its own at a known instant (a membership ending:
 * `staleAt`) is never served past it.
 */
export class UserInfoCache<T> {
  private readonly entries = new Map<number, { value: T; cachedUntil: number }>();
  private readonly generations = new Map<number, number>();

  constructor(
    private readonly ttlMs = 30_000,
    private readonly maxEntries = 50_000,
    /** epoch ms at which a value stops being true by itself (undefined: only the TTL applies) */
    private readonly staleAt: (value: T) => number | undefined = () => undefined,
  ) {}

  async get(userId: number, load: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(userId);
    if (hit && hit.cachedUntil > now) return hit.value;
    const generation = this.generations.get(userId) ?? 0;
    const value = await load();
    if ((this.generations.get(userId) ?? 0) === generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(userId, { value, cachedUntil: Math.min(now + this.ttlMs, this.staleAt(value) ?? Infinity) });
    }
    return value;
  }

  readonly onEvent = (event: DomainEvent): void => {
    if (event.type !== "user.changed") return;
    this.entries.delete(event.userId);
    this.generations.set(event.userId, (this.generations.get(event.userId) ?? 0) + 1);
    if (this.generations.size > 100_000) this.generations.clear();
  };
}
