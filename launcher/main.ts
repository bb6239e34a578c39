import { apiLoggerOptions, createApiServer } from "@yuelu/api";
import { addJobSource, loadConfig, openPlatform, startBackupSchedule } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { startWorkerProcess } from "./worker-process.ts";

/**
 * `npm start`: the composition root of single-machine mode. It opens the platform once (embedded
 * PGlite when there is no DATABASE_URL, queues on PostgreSQL when there is no REDIS_URL), serves the
 * API (with the built SPA) and, unless WORKER_MODE=off, starts the job workers as a child process on
 * that same database (worker-process.ts) — the apps themselves never import each other.
 */
const config = loadConfig();
const logger = pino(apiLoggerOptions(config.LOG_LEVEL));
const withWorkers = config.workerMode === "embedded";
const platform = await openPlatform(config, logger, { shareEmbedded: withWorkers });
const app = await createApiServer(platform, logger);

/**
 * The grace of the whole process (SHUTDOWN_GRACE_SECONDS); its worker gets a little less, so it is gone
 * before the database closes. A job cut at the grace resumes from its last checkpoint after the restart.
 */
const GRACE_SECONDS = config.SHUTDOWN_GRACE_SECONDS;
const workers = withWorkers
  ? startWorkerProcess({
      databaseUrl: platform.database.url,
      graceSeconds: Math.min(config.WORKER_GRACE_SECONDS, GRACE_SECONDS - 5),
      log: logger.child({ service: "launcher" }),
    })
  : undefined;

// the API's /metrics adds the worker child's job families: one scrape covers the whole install
if (workers) addJobSource(() => workers.metrics());

// BACKUP_CRON: scheduled backups (off by default), taken through this process's embedded database.
const backups = startBackupSchedule(config, logger.child({ service: "backup" }));

closeWithGrace({ delay: GRACE_SECONDS * 1000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests and jobs");
  await backups?.stop();
  await app.close();
  await workers?.stop();
  await platform.close();
});

// Open the doors once the worker is up, so the first page already shows what it can transcribe and speak.
await Promise.race([workers?.ready, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
await app.listen({ port: config.PORT, host: config.HOST });
app.log.info(
  `Yuelu ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`} ` +
    `(database: ${platform.database.embedded ? "embedded PGlite" : "PostgreSQL"}, queues: ${platform.queues.kind}, ` +
    `events: ${platform.events.transportKind}, workers: ${withWorkers ? "a child process" : "separate processes"})`,
);
