import { cookieSecret, type Platform } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import { buildApp } from "./app.ts";
import { memoryLimiter, redisLimiter } from "./lib/limiter.ts";
import { consoleSms, webhookSms } from "./modules/account/sms.ts";

/**
 * The HTTP application on a process's platform (database, Redis, queues, files, events): what
 * `apps/api/src/main.ts` serves alone and the launcher serves beside the workers.
 */
export async function createApiServer(platform: Platform, logger: FastifyBaseLogger) {
  const { config, database, redis } = platform;
  return buildApp(
    {
      config,
      db: database.db,
      sql: database.sql,
      redis,
      queues: platform.queues,
      events: platform.events,
      limiter: redis ? redisLimiter(redis) : memoryLimiter(),
      files: platform.files,
      cookieSecret: await cookieSecret(config),
      sms: config.SMS_PROVIDER === "webhook" ? webhookSms(config.SMS_WEBHOOK_URL ?? "") : consoleSms(logger),
    },
    { loggerInstance: logger },
  );
}
