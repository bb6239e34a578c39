import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import pg from "pg";

/**
 * What the business rules announce after their transaction commits. Subscribers react to them:
 * the API's caches drop what changed (on every replica), and later features send messages.
 */
/** What a transcript write changed (webhook `transcript.updated`'s `change`). */
export type TranscriptChange = "edited" | "speakers" | "summary" | "notes" | "finished";

export type DomainEvent =
  /** something cached about the user (user info, sessions) stopped being true */
  | { type: "user.changed"; userId: number }
  /** one session ended (logout) */
  | { type: "session.ended"; userId: number; sessionId: string }
  | { type: "transcription.done"; userId: number; taskId: number; fileId: number }
  | { type: "transcription.failed"; userId: number; taskId: number; fileId: number; code: number }
  /**
   * a transcript was written (domain/records/transcript.ts writeTranscript): once per committed change — a
   * batch rename of 50 segments is one — with the transcript's new version
   */
  | { type: "transcript.changed"; userId: number; fileId: number; change: TranscriptChange; version: number }
  /** a record's searchable facts changed (its name) */
  | { type: "record.changed"; userId: number; fileId: number }
  /** an order's trade status or QR changed (scanned, closed, reopened, paid) */
  | { type: "order.changed"; userId: number; orderNumber: string }
  /** an order was paid and its goods granted (once) */
  | { type: "order.paid"; userId: number; orderNumber: string; goodsId: number }
  /** a text-to-speech task finished (its audio is stored) or failed (its characters refunded) */
  | { type: "tts.done"; userId: number; taskId: number }
  | { type: "tts.failed"; userId: number; taskId: number; code: number }
  /** a trained voice ("voice") or a sung/converted song ("work") is ready, or failed (its quota refunded) */
  | { type: "voice.done"; userId: number; kind: "voice" | "work"; id: number }
  | { type: "voice.failed"; userId: number; kind: "voice" | "work"; id: number; code: number }
  /** an AI note (chapters, summary, translation, answer) is ready, or failed or was cancelled (its tokens settled) */
  | { type: "note.done"; userId: number; taskId: number; fileId: number | null; kind: string }
  | { type: "note.failed"; userId: number; taskId: number; fileId: number | null; kind: string }
  /**
   * webhook deliveries (outbox rows) were written: workers queue them now. Losing this notice only
   * delays them (housekeeping and a starting worker queue what is due), so the bus's at-most-once is enough.
   */
  | { type: "webhooks.due"; userId: number; deliveries: { id: number; attempt: number }[] };

export interface EventPublisher {
  publish(event: DomainEvent): Promise<void>;
}

/** Carries events between processes (API replicas, worker processes). */
export interface EventTransport {
  readonly kind: "redis" | "postgres";
  send(raw: string): Promise<void>;
  listen(onMessage: (raw: string) => void): Promise<void>;
  close(): Promise<void>;
}

/** The PostgreSQL NOTIFY channel (per database, so per installation). */
const PG_CHANNEL = "yuelu_events";

/**
 * The event bus of one process: it delivers each event to this process's subscribers and, through
 * its transport, to every other process of the installation (which deliver it to theirs). Without a
 * transport (one process, embedded database) delivery stays in-process. A process never handles its
 * own event twice: messages carry the bus's origin id.
 */
export class EventBus implements EventPublisher {
  private readonly handlers: ((event: DomainEvent) => void)[] = [];
  private readonly origin = randomUUID();

  constructor(
    private readonly transport?: EventTransport,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  get transportKind(): "redis" | "postgres" | "in-process" {
    return this.transport?.kind ?? "in-process";
  }

  /** Starts receiving other processes' events (call once; a worker that only publishes may skip it). */
  async listen(): Promise<void> {
    await this.transport?.listen((raw) => {
      const message = parse(raw);
      if (message && message.origin !== this.origin) this.deliver(message.event);
    });
  }

  subscribe(handler: (event: DomainEvent) => void): void {
    this.handlers.push(handler);
  }

  async publish(event: DomainEvent): Promise<void> {
    this.deliver(event);
    try {
      await this.transport?.send(JSON.stringify({ origin: this.origin, event }));
    } catch (error) {
      // The change is committed: a lost notification only leaves other processes' caches to their TTL.
      this.onError(error);
    }
  }

  async close(): Promise<void> {
    await this.transport?.close();
  }

  private deliver(event: DomainEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}

function parse(raw: string): { origin: string; event: DomainEvent } | undefined {
  try {
    const m = JSON.parse(raw) as { origin?: unknown; event?: { type?: unknown; userId?: unknown } };
    if (typeof m.origin !== "string" || typeof m.event?.type !== "string") return undefined;
    if (!Number.isInteger(m.event.userId)) return undefined;
    return m as { origin: string; event: DomainEvent };
  } catch {
    return undefined; // not ours
  }
}

/** Redis pub/sub on `channel` (the installation's own): `redis` publishes; a duplicate connection subscribes. */
export function redisTransport(redis: Redis, channel: string): EventTransport {
  let subscriber: Redis | undefined;
  return {
    kind: "redis",
    async send(raw) {
      await redis.publish(channel, raw);
    },
    async listen(onMessage) {
      subscriber = redis.duplicate();
      subscriber.on("message", (_channel, raw: string) => onMessage(raw));
      await subscriber.subscribe(channel);
    },
    async close() {
      await subscriber?.quit();
    },
  };
}

/** PostgreSQL LISTEN/NOTIFY, for installs with a database server but no Redis. */
export function postgresTransport(databaseUrl: string, channel = PG_CHANNEL): EventTransport {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  pool.on("error", () => {});
  let listener: pg.Client | undefined;
  return {
    kind: "postgres",
    async send(raw) {
      await pool.query("SELECT pg_notify($1, $2)", [channel, raw]);
    },
    async listen(onMessage) {
      listener = new pg.Client({ connectionString: databaseUrl });
      listener.on("error", () => {});
      listener.on("notification", (n) => {
        if (n.channel === channel && n.payload) onMessage(n.payload);
      });
      await listener.connect();
      await listener.query(`LISTEN ${channel}`);
    },
    async close() {
      await listener?.end().catch(() => {});
      await pool.end().catch(() => {});
    },
  };
}
