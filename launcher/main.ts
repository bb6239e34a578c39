import { apiLogger, createApiServer } from "@yuelu/api";
import {
  addJobSource,
  keepHeartbeatFresh,
  loadConfig,
  loadLiveConfig,
  openPlatform,
  startBackupSchedule,
} from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import { wakingQueues, watchForWork } from "./wake.ts";
import { startWorkerProcess, type WorkerProcess } from "./worker-process.ts";

/**
 * `npm start`: the composition root of single-machine mode. It opens the platform once (embedded
 * PGlite when there is no DATABASE_URL, queues on PostgreSQL when there is no REDIS_URL), serves the
 * API (with the built SPA) and, unless WORKER_MODE=off, starts the job workers as a child process on
 * that same database (worker-process.ts) — the apps themselves never import each other.
 */
const config = loadConfig();
const logger = apiLogger(config.LOG_LEVEL);
const withWorkers = config.workerMode === "embedded";
const opened = await openPlatform(config, logger, { shareEmbedded: withWorkers });

/**
 * The grace of the whole process (SHUTDOWN_GRACE_SECONDS); its worker gets a little less, so it is gone
 * before the database closes. A job cut at the grace resumes from its last checkpoint after the restart.
 */
const GRACE_SECONDS = config.SHUTDOWN_GRACE_SECONDS;
let workers: WorkerProcess | undefined;
let stopWatching: (() => void) | undefined;
// The worker sleeps when idle (worker-process.ts): a job queued here, or due in the queues, wakes it.
const wakeWorkers = (reason: string) => void workers?.wake(reason);
const platform = withWorkers ? { ...opened, queues: wakingQueues(opened.queues, wakeWorkers) } : opened;
const app = await createApiServer(platform, logger);

// BACKUP_CRON: scheduled backups (off by default), taken through this process's embedded database.
const backups = startBackupSchedule(config, logger.child({ service: "backup" }));

closeWithGrace({ delay: GRACE_SECONDS * 1000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests and jobs");
  await backups?.stop();
  stopWatching?.();
  await app.close();
  await workers?.stop();
  await platform.close();
});

// The doors open first (the API serves without workers; /readyz lists them once their heartbeat is
// written, a second or so later). The worker starts next: its start-up queries run on the embedded
// database, which lives on this process's thread, and would delay the doors (bench/README.md "Start-up").
await app.listen({ port: config.PORT, host: config.HOST });
app.log.info(
  `Yuelu ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`} ` +
    `(database: ${platform.database.embedded ? "embedded PGlite" : "PostgreSQL"}, queues: ${platform.queues.kind}, ` +
    `events: ${platform.events.transportKind}, workers: ${withWorkers ? "a child process" : "separate processes"})`,
);

if (withWorkers) {
  const live = loadLiveConfig();
  const { sql } = opened.database;
  const started = await startWorkerProcess({
    databaseUrl: opened.database.url,
    graceSeconds: Math.min(config.WORKER_GRACE_SECONDS, GRACE_SECONDS - 5),
    sleepSeconds: config.WORKER_SLEEP_SECONDS,
    standby: (workerId) => keepHeartbeatFresh((text, values) => sql.once(text, values), workerId),
    live: { host: live.LIVE_HOST, port: live.LIVE_PORT, publicUrl: live.LIVE_PUBLIC_URL },
    log: logger.child({ service: "launcher" }),
  });
  workers = started;
  // the API's /metrics adds the worker child's job families: one scrape covers the whole install
  addJobSource(() => started.metrics());
  stopWatching = watchForWork({
    queues: platform.queues,
    events: platform.events,
    asleep: () => !started.awake,
    wake: wakeWorkers,
    onError: (err) => logger.warn({ err }, "could not look for due jobs"),
  });
}
