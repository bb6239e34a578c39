import type { Redis } from "ioredis";

/** Something cached about a user stopped being true. */
export type Invalidation = { kind: "user"; userId: number } | { kind: "session"; userId: number; sessionId: string };

const CHANNEL = "yuelu:invalidate";

/**
 * Carries cache invalidations to this process's caches and, through Redis pub/sub, to every other
 * API replica. Services publish after their transaction commits; caches subscribe.
 */
export class InvalidationBus {
  private readonly handlers: ((message: Invalidation) => void)[] = [];
  private subscriber?: Redis;

  constructor(private readonly redis?: Redis) {}

  async listen(): Promise<void> {
    if (!this.redis) return;
    this.subscriber = this.redis.duplicate();
    this.subscriber.on("message", (_channel, raw: string) => {
      const message = parse(raw);
      if (message) this.deliver(message);
    });
    await this.subscriber.subscribe(CHANNEL);
  }

  async close(): Promise<void> {
    await this.subscriber?.quit();
  }

  subscribe(handler: (message: Invalidation) => void): void {
    this.handlers.push(handler);
  }

  /** The user's data changed: drop whatever is cached about them, here and on other replicas. */
  user(userId: number): Promise<void> {
    return this.publish({ kind: "user", userId });
  }

  /** One session ended (logout). */
  session(userId: number, sessionId: string): Promise<void> {
    return this.publish({ kind: "session", userId, sessionId });
  }

  private async publish(message: Invalidation): Promise<void> {
    this.deliver(message);
    // Our own subscriber receives it too; applying an invalidation twice is harmless.
    await this.redis?.publish(CHANNEL, JSON.stringify(message));
  }

  private deliver(message: Invalidation): void {
    for (const handler of this.handlers) handler(message);
  }
}

function parse(raw: string): Invalidation | undefined {
  try {
    const m = JSON.parse(raw) as Invalidation;
    if (m.kind === "user" && Number.isInteger(m.userId)) return m;
    if (m.kind === "session" && Number.isInteger(m.userId) && typeof m.sessionId === "string") return m;
  } catch {
    // not ours
  }
  return undefined;
}
