import path from "node:path";
import { createDb } from "@yuelu/db";
import { createQueueBackend, loadConfig, localFileStore, queuePrefix } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { startWorkers } from "./workers.ts";

/**
 * The worker process for multi-machine installs (docker compose): it needs DATABASE_URL and,
 * normally, REDIS_URL. On one machine `npm start` runs the same workers inside the API process.
 */
const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL, base: { service: "worker" } });
if (!config.DATABASE_URL) {
  log.fatal("DATABASE_URL is required for a separate worker process (npm start runs workers in-process)");
  process.exit(2);
}
const db = createDb(config.DATABASE_URL, { poolSize: 5 });
const queues = createQueueBackend({
  redisUrl: config.REDIS_URL,
  databaseUrl: config.DATABASE_URL,
  prefix: await queuePrefix(db),
});
const files = localFileStore(path.join(config.dataDir, "files"));
await startWorkers({ db, config, queues, files, log });
log.info({ queueBackend: queues.kind }, "worker started");

closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, "worker crashed");
  log.info({ signal }, "worker stopping: finishing current jobs");
  await queues.close();
  await db.$disconnect();
});
