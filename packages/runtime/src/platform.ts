import path from "node:path";
import { Redis } from "ioredis";
import type { Config } from "./config.ts";
import { type DatabaseHandle, openDatabase } from "./database.ts";
import { EventBus, postgresTransport, redisTransport } from "./events.ts";
import { type FileStore, localFileStore } from "./file-store.ts";
import { createQueueBackend, type QueueBackend, queuePrefix } from "./queues.ts";

/** The shared infrastructure of one process: what the API, the worker and the launcher all start from. */
export interface Platform {
  config: Config;
  database: DatabaseHandle;
  /** present when REDIS_URL is set */
  redis?: Redis;
  /** this installation's prefix of queue names and Redis keys */
  prefix: string;
  queues: QueueBackend;
  files: FileStore;
  /**
   * Events between processes: Redis pub/sub with REDIS_URL; PostgreSQL LISTEN/NOTIFY with only
   * DATABASE_URL or an embedded database shared with the launcher's worker process; in-process
   * when the embedded database serves this process alone.
   */
  events: EventBus;
  close(): Promise<void>;
}

const SETTING_QUERY = `SELECT value FROM app_settings WHERE key = $1`;

export async function openPlatform(
  config: Config,
  log: { info(msg: string): void; error(obj: unknown, msg?: string): void },
  options: {
    /** other processes (the launcher's worker) use this embedded database: carry events to them too */
    shareEmbedded?: boolean;
  } = {},
): Promise<Platform> {
  const database = await openDatabase(config, (msg) => log.info(msg));
  const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
  // One prefix per installation (queues, events), so installs sharing a Redis never hear each other.
  // (read with a plain statement: a start runs no ORM query, bench/README.md "Start-up")
  const prefix = await queuePrefix({
    appSetting: {
      findUnique: async ({ where }) =>
        (await database.sql.once<{ value: unknown }>(SETTING_QUERY, [where.key]))[0] ?? null,
    },
  });
  const transport = redis
    ? redisTransport(redis, `${prefix}:events`)
    : database.embedded && !options.shareEmbedded
      ? undefined
      : postgresTransport(database.url);
  const events = new EventBus(transport, (err) => log.error({ err }, "event bus error"));
  await events.listen();
  const queues = createQueueBackend({ redisUrl: config.REDIS_URL, databaseUrl: database.url, prefix });
  const files = await openFileStore(config);
  return {
    config,
    database,
    redis,
    prefix,
    queues,
    files,
    events,
    async close() {
      await queues.close();
      await events.close();
      await redis?.quit();
      await database.close();
    },
  };
}

/** The configured file store: DATA_DIR/files, or the S3 bucket (checked, and made when missing). */
export async function openFileStore(config: Config): Promise<FileStore> {
  if (config.FILE_STORE !== "s3") return localFileStore(path.join(config.dataDir, "files"));
  // Loaded only here: a one-machine install never pays for the AWS SDK.
  const { ensureBucket, s3FileStore } = await import("./s3-file-store.ts");
  const settings = { ...config, S3_BUCKET: config.S3_BUCKET ?? "" };
  await ensureBucket(settings);
  // Tools (ffmpeg, ffprobe) read a temporary copy, next to this process's other temporary files.
  return s3FileStore(settings, { tmpDir: path.join(config.dataDir, "tmp") });
}
