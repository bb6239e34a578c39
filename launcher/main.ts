import { createApiServer } from "@yuelu/api";
import { loadConfig, openPlatform } from "@yuelu/runtime";
import { startWorkers } from "@yuelu/worker";
import closeWithGrace from "close-with-grace";
import pino from "pino";

/**
 * `npm start`: the composition root of single-process mode. It opens the platform once (embedded
 * PGlite when there is no DATABASE_URL, queues on PostgreSQL when there is no REDIS_URL), serves the
 * API (with the built SPA) and, unless WORKER_MODE=off, runs the job workers in the same process —
 * the apps themselves never import each other.
 */
const config = loadConfig();
const logger = pino({
  level: config.LOG_LEVEL,
  redact: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'],
});
const platform = await openPlatform(config, logger);
const app = await createApiServer(platform, logger);
const workers =
  config.workerMode === "embedded"
    ? await startWorkers({
        db: platform.database.db,
        config,
        queues: platform.queues,
        files: platform.files,
        events: platform.events,
        log: logger.child({ service: "worker" }),
      })
    : undefined;

closeWithGrace({ delay: 20_000 }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, "server crashed");
  app.log.info({ signal }, "shutting down: draining requests and jobs");
  await app.close();
  await workers?.stop();
  await platform.close();
});

await app.listen({ port: config.PORT, host: config.HOST });
app.log.info(
  `Yuelu ready on ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`} ` +
    `(database: ${platform.database.embedded ? "embedded PGlite" : "PostgreSQL"}, queues: ${platform.queues.kind}, ` +
    `events: ${platform.events.transportKind}, workers: ${config.workerMode})`,
);
