import type { DomainEvent } from "@yuelu/runtime";

interface Entry<T> {
  value: T;
  cachedUntil: number;
}

interface CachedSession {
  userId: number;
  sessionId: string;
}

/**
 * Recently seen sessions, keyed by the signed sid cookie, so a signed-in request costs no session
 * query and no signature check (bench/README.md). Entries live `ttlMs` at most; whatever changes
 * what a session grants (logout, account deletion or its cancellation) drops them through the event
 * bus, on every replica.
 */
export class SessionCache<T extends CachedSession> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string, now = Date.now()): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.cachedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: T, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest insertion (Map keeps insertion order): a cheap bound, not a true LRU.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, cachedUntil: now + this.ttlMs });
  }

  readonly onEvent = (event: DomainEvent): void => {
    if (event.type !== "user.changed" && event.type !== "session.ended") return;
    for (const [key, e] of this.entries) {
      if (e.value.userId !== event.userId) continue;
      if (event.type === "user.changed" || e.value.sessionId === event.sessionId) this.entries.delete(key);
    }
  };
}
