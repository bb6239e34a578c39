import type { Redis } from "ioredis";

interface Entry<T> {
  value: T;
  userId: number;
  cachedUntil: number;
}

/** What the cache needs to know of a cached value to invalidate it. */
interface Identified {
  sessionId: string;
}

const CHANNEL = "yuelu:session-invalidate";

/**
 * Recently seen sessions, so a signed-in request costs no session query (see bench/README.md).
 * Entries live `ttlMs` at most. Anything that changes what a session grants (logout, account
 * deletion or its cancellation, purge) invalidates here, and through Redis pub/sub on every other
 * API replica too, so a cached session never outlives its revocation by more than a message hop.
 */
export class SessionCache<T extends Identified> {
  private readonly entries = new Map<string, Entry<T>>();
  private subscriber?: Redis;

  constructor(
    private readonly ttlMs = 60_000,
    private readonly maxEntries = 50_000,
    private readonly publisher?: Redis,
  ) {}

  async listen(): Promise<void> {
    if (!this.publisher) return;
    this.subscriber = this.publisher.duplicate();
    this.subscriber.on("message", (_channel, message: string) => this.applyRemote(message));
    await this.subscriber.subscribe(CHANNEL);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit();
  }

  /** `key` is the signed cookie value the session was found by. */
  get(key: string, now = Date.now()): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.cachedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, userId: number, value: T, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest insertion (Map keeps insertion order): a cheap bound, not a true LRU.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, userId, cachedUntil: now + this.ttlMs });
  }

  /** Drops one session (logout). */
  async invalidateUserSession(userId: number, sessionId: string): Promise<void> {
    this.dropSession(userId, sessionId);
    await this.publisher?.publish(CHANNEL, `s:${userId}:${sessionId}`);
  }

  async invalidateUser(userId: number): Promise<void> {
    this.dropUser(userId);
    await this.publisher?.publish(CHANNEL, `u:${userId}`);
  }

  private dropUser(userId: number): void {
    for (const [key, e] of this.entries) if (e.userId === userId) this.entries.delete(key);
  }

  private dropSession(userId: number, sessionId: string): void {
    for (const [key, e] of this.entries) {
      if (e.userId === userId && e.value.sessionId === sessionId) this.entries.delete(key);
    }
  }

  private applyRemote(message: string): void {
    const [kind, user, session] = message.split(":");
    if (kind === "s" && session) this.dropSession(Number(user), session);
    else if (kind === "u") this.dropUser(Number(user));
  }
}
