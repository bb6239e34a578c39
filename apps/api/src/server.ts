import { cookieSecret, describeTools, type Platform, toolReports } from "@yuelu/runtime";
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
  // uploads are identified with ffprobe and measured with ffmpeg (records/probe.ts)
  // found, not run: their versions (a program run each) are read when /readyz first asks
  const tools = toolReports(["ffprobe", "ffmpeg"], config, false);
  const missing = tools.filter((t) => !t.available);
  if (missing.length === 0) logger.info(`api tools: ${describeTools(tools)}`);
  else
    logger.error(
      `api tools: ${describeTools(tools)} — uploads are refused until ${missing.map((t) => t.name).join(" and ")} can run: ${missing.map((t) => t.install).join("; ")}`,
    );
  return buildApp(
    {
      config,
      db: database.db,
      sql: database.sql,
      redis,
      redisPrefix: platform.prefix,
      queues: platform.queues,
      events: platform.events,
      limiter: redis ? redisLimiter(redis, `${platform.prefix}:limit:`) : memoryLimiter(),
      files: platform.files,
      cookieSecret: await cookieSecret(config),
      sms: config.SMS_PROVIDER === "webhook" ? webhookSms(config.SMS_WEBHOOK_URL ?? "") : consoleSms(logger),
    },
    { loggerInstance: logger },
  );
}
