import type { Db } from "@yuelu/db";
import type { Clock } from "@yuelu/domain";
import type { Config, EventBus, FileStore, HotSql, QueueBackend } from "@yuelu/runtime";
import type { Redis } from "ioredis";
import type { Limiter } from "./lib/limiter.ts";

/** What the API needs from the outside world; built by main.ts (or the launcher), or by tests with real services. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** prepared-statement reads on the hot path (session, user info); Prisma for everything else */
  sql: HotSql;
  /** present when REDIS_URL is set: shared rate limits across replicas */
  redis?: Redis;
  /** this installation's prefix of Redis keys (runtime/queues.ts queuePrefix), so installs sharing a Redis never share counts */
  redisPrefix?: string;
  /** the job queues the API adds to (transcription); the workers consume them */
  queues: QueueBackend;
  /** the process's event bus: the domain publishes on it, the caches listen (every replica) */
  events: EventBus;
  limiter: Limiter;
  /** uploaded media and generated files */
  files: FileStore;
  cookieSecret: string;
  /** the SMS provider; tests pass one that records codes */
  sms: SmsSender;
  /** "now" for the business rules; the system clock unless a test fixes it */
  clock?: Clock;
}

export interface SmsSender {
  readonly name: string;
  send(phone: string, code: string): Promise<void>;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
