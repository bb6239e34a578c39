import { createPostgresBackend, type Processor, Queue, Worker, type WorkerOptions, withBackend } from "bullmq";

/** Names of every BullMQ queue; one worker handler per name. */
export const QueueName = {
  Housekeeping: "housekeeping",
  Transcription: "transcription",
  Tts: "tts",
  /** the voice library's try_listen samples: their own queue, so a sample never waits behind long syntheses */
  TtsSamples: "tts-samples",
  Voice: "voice",
  /** signed webhook deliveries (docs/integrators.md): short HTTP calls, never behind long speech jobs */
  Webhooks: "webhooks",
  /** AI notes made with the configured LLM (docs/notes.md): chapters, summaries, translations, answers */
  Notes: "notes",
  /** clips cut from records (docs/clips.md): seconds of ffmpeg, never behind long transcriptions */
  Clips: "clips",
} as const;
export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export interface QueueBackend {
  kind: "redis" | "postgres";
  queue<T = unknown>(name: QueueName): Queue<T>;
  worker<T = unknown>(name: QueueName, processor: Processor<T>, opts?: Partial<WorkerOptions>): Worker<T>;
  close(): Promise<void>;
}

/**
 * BullMQ on Redis when REDIS_URL is set, otherwise BullMQ's PostgreSQL backend on the app's own
 * database (which may be the embedded PGlite). Same queue code either way; only the backend differs.
 */
export function createQueueBackend(options: { redisUrl?: string; databaseUrl: string; prefix?: string }): QueueBackend {
  const queues = new Map<string, Queue>();
  const workers: Worker[] = [];
  const prefix = options.prefix ?? "yuelu";

  const make = options.redisUrl
    ? {
        kind: "redis" as const,
        // Pass the URL, not an ioredis instance: BullMQ then owns and closes its connections.
        queue: (name: string) => new Queue(name, { connection: { url: options.redisUrl }, prefix }),
        worker: (name: string, processor: Processor, opts: Partial<WorkerOptions>) =>
          new Worker(name, processor, {
            ...opts,
            connection: { url: options.redisUrl, maxRetriesPerRequest: null },
            prefix,
          }),
      }
    : (() => {
        const pg = withBackend(createPostgresBackend);
        // Schema "public": the embedded PGlite shares one session among all connections, so a
        // per-connection search_path (which a separate schema needs) would leak between clients.
        // BullMQ creates its (prefixed) tables on first use.
        const connection = { connectionString: options.databaseUrl, schema: "public", migrate: true, max: 3 };
        return {
          kind: "postgres" as const,
          queue: (name: string) => new pg.Queue(name, { connection, prefix }) as unknown as Queue,
          worker: (name: string, processor: Processor, opts: Partial<WorkerOptions>) =>
            new pg.Worker(name, processor, { ...opts, connection, prefix }) as unknown as Worker,
        };
      })();

  return {
    kind: make.kind,
    queue<T>(name: QueueName) {
      let q = queues.get(name);
      if (!q) {
        q = make.queue(name);
        queues.set(name, q);
      }
      return q as Queue<T>;
    },
    worker<T>(name: QueueName, processor: Processor<T>, opts: Partial<WorkerOptions> = {}) {
      const w = make.worker(name, processor as Processor, opts);
      workers.push(w);
      return w as Worker<T>;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([...queues.values()].map((q) => q.close()));
    },
  };
}

/** The queue prefix of this installation (see the seeded app setting 'instance_id'). */
export async function queuePrefix(db: {
  appSetting: { findUnique(args: { where: { key: string } }): Promise<{ value: unknown } | null> };
}): Promise<string> {
  const row = await db.appSetting.findUnique({ where: { key: "instance_id" } });
  const id = typeof row?.value === "string" ? row.value.replaceAll("-", "").slice(0, 12) : "default";
  return `yuelu-${id}`;
}
