import path from "node:path";
import {
  cookieSecret,
  createQueueBackend,
  loadConfig,
  localFileStore,
  openDatabase,
  queuePrefix,
} from "@yuelu/runtime";
import { startWorkers } from "@yuelu/worker";
import closeWithGrace from "close-with-grace";
import { Redis } from "ioredis";
import pino from "pino";
import { buildApp } from "./app.ts";
import { memoryLimiter, redisLimiter } from "./lib/limiter.ts";
import { consoleSms, webhookSms } from "./modules/account/sms.ts";

/**
 * `npm start`: one process serving the API, the account service and the built SPA. Without
 * DATABASE_URL it runs embedded PostgreSQL (PGlite under DATA_DIR); without REDIS_URL its queues
 * run on PostgreSQL and its workers run in this process.
 */
const config = loadConfig();
const logger = pino({
  level: config.LOG_LEVEL,
  redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
});
const database = await openDatabase(config, (msg) => logger.info(msg));
const redis = config.REDIS_URL ? new Redis(config.REDIS_URL, { maxRetriesPerRequest: 2 }) : undefined;
const queues = createQueueBackend({
  redisUrl: config.REDIS_URL,
  databaseUrl: database.url,
  prefix: await queuePrefix(database.db),
});
const files = localFileStore(path.join(config.dataDir, "files"));

const app = await buildApp(
  {
    config,
    db: database.db,
    sql: database.sql,
    redis,
    queues,
    limiter: redis ? redisLimiter(redis) : memoryLimiter(),
    files,
    cookieSecret: await cookieSecret(config),
    sms: config.SMS_PROVIDER === "webhook" ? webhookSms(config.SMS_WEBHOOK_URL ?? "") : consoleSms(logger),
  },
  { loggerInstance: logger },
);

if (config.workerMode === "embedded") {
  await startWorkers({ db: database.db, config, queues, files, log: app.log });
}

closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests and jobs");
  await app.close();
  await queues.close();
  await redis?.quit();
  await database.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
app.log.info(
  `Yuelu ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`} ` +
    `(database: ${database.embedded ? "embedded PGlite" : "PostgreSQL"}, queues: ${queues.kind}, workers: ${config.workerMode})`,
);
