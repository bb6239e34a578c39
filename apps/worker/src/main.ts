import { loadConfig, openPlatform } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { startWorkers } from "./workers.ts";

/**
 * The worker process for multi-machine installs (docker compose, GPU servers): it needs
 * DATABASE_URL and, normally, REDIS_URL. On one machine `npm start` (the launcher) runs the same
 * workers inside the API's process.
 */
const config = loadConfig();
const log = pino({ level: config.LOG_LEVEL, base: { service: "worker" } });
if (!config.DATABASE_URL) {
  log.fatal("DATABASE_URL is required for a separate worker process (npm start runs workers in-process)");
  process.exit(2);
}
const platform = await openPlatform(config, log);
const workers = await startWorkers({
  db: platform.database.db,
  config,
  queues: platform.queues,
  files: platform.files,
  events: platform.events,
  log,
});
log.info({ queueBackend: platform.queues.kind, events: platform.events.transportKind }, "worker started");

closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, "worker crashed");
  log.info({ signal }, "worker stopping: finishing current jobs");
  await workers.stop();
  await platform.close();
});
