import type { Db } from "@yuelu/db";
import type { Config, FileStore, HotSql, QueueBackend } from "@yuelu/runtime";
import type { Redis } from "ioredis";
import type { Limiter } from "./lib/limiter.ts";

/** What the API needs from the outside world; built by main.ts, or by tests with real services. */
export interface AppDeps {
  config: Config;
  db: Db;
  /** prepared-statement reads on the hot path (session, user info); Prisma for everything else */
  sql: HotSql;
  /** present when REDIS_URL is set: shared rate limits across replicas */
  redis?: Redis;
  /** present when jobs can be queued (the worker side) */
  queues?: QueueBackend;
  limiter: Limiter;
  /** uploaded media and generated files */
  files: FileStore;
  cookieSecret: string;
  /** the SMS provider; tests pass one that records codes */
  sms: SmsSender;
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
