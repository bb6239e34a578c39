import { randomUUID } from "node:crypto";
import { ERRORS, type Lock, type Locker, type RequestRelease } from "@tus/utils";
import type { Redis } from "ioredis";

/** How long a lock lives without its holder renewing it: a crashed node's lock frees itself after this. */
const LEASE_MS = 15_000;
/** The holder renews its lease this often. */
const RENEW_MS = 5_000;
/** How long a request waits for the lock before tus answers "locked" (the same as @tus/server's MemoryLocker). */
const ACQUIRE_TIMEOUT_MS = 30_000;
/** Between two tries while another node holds the lock. */
const RETRY_MS = 50;
/** A waiting request asks the holder to let go at most this often. */
const ASK_EVERY_MS = 1_000;

/** Deletes or extends the key only while it still holds our token (a lease that expired may belong to another node now). */
const RELEASE_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;
const RENEW_SCRIPT = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end`;

/**
 * The tus lock of an upload shared by every API node (issue 31): without it two nodes could append to the same
 * upload at once — a client that resumes through another node while its old PATCH still hangs on the first.
 * A lock is a Redis key with a lease (SET NX PX), renewed while held, released by compare-and-delete. A request
 * that finds the upload locked asks the holder to let go, on any node, over pub/sub: the holder's request is
 * then ended by @tus/server (its `requestRelease`), exactly as the in-process MemoryLocker does on one node.
 */
export class RedisLocker implements Locker {
  /** Locks held by this node's requests: who to ask when another request wants the upload. */
  private readonly held = new Map<string, RequestRelease>();
  private readonly channel: string;
  private subscriber: Redis | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {
    this.channel = `${prefix}:tus-release`;
  }

  /** Listens for other nodes' requests to let go; call once before serving. */
  async start(): Promise<void> {
    const subscriber = this.redis.duplicate();
    subscriber.on("error", () => {}); // ioredis reconnects; a missed release ask only costs the waiter a retry
    subscriber.on("message", (_channel: string, id: string) => {
      const release = this.held.get(id);
      if (release) void Promise.resolve(release()).catch(() => {});
    });
    await subscriber.subscribe(this.channel);
    this.subscriber = subscriber;
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
    this.subscriber = undefined;
  }

  newLock(id: string): Lock {
    return new RedisLock(this, id);
  }

  /** @internal the pieces a lock needs */
  keyOf(id: string) {
    return `${this.prefix}:tus-lock:${id}`;
  }
  get client() {
    return this.redis;
  }
  hold(id: string, release: RequestRelease) {
    this.held.set(id, release);
  }
  letGo(id: string) {
    this.held.delete(id);
  }
  async askToRelease(id: string) {
    // the holder may be on this node too: ask directly, then every node
    const local = this.held.get(id);
    if (local) await Promise.resolve(local()).catch(() => {});
    await this.redis.publish(this.channel, id);
  }
}

class RedisLock implements Lock {
  private readonly token = randomUUID();
  private renewal: NodeJS.Timeout | undefined;
  private acquired = false;

  constructor(
    private readonly locker: RedisLocker,
    private readonly id: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const key = this.locker.keyOf(this.id);
    const redis = this.locker.client;
    const deadline = Date.now() + ACQUIRE_TIMEOUT_MS;
    let askedAt = 0;
    while (!signal.aborted && Date.now() < deadline) {
      if ((await redis.set(key, this.token, "PX", LEASE_MS, "NX")) === "OK") {
        this.acquired = true;
        this.locker.hold(this.id, requestRelease);
        this.renewal = setInterval(() => {
          redis.eval(RENEW_SCRIPT, 1, key, this.token, String(LEASE_MS)).catch(() => {});
        }, RENEW_MS);
        this.renewal.unref();
        return;
      }
      if (Date.now() - askedAt >= ASK_EVERY_MS) {
        askedAt = Date.now();
        await this.locker.askToRelease(this.id).catch(() => {});
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
    throw ERRORS.ERR_LOCK_TIMEOUT;
  }

  async unlock(): Promise<void> {
    if (!this.acquired) return;
    this.acquired = false;
    clearInterval(this.renewal);
    this.renewal = undefined;
    this.locker.letGo(this.id);
    await this.locker.client.eval(RELEASE_SCRIPT, 1, this.locker.keyOf(this.id), this.token);
  }
}
