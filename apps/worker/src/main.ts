import { loadConfig, lowerOwnPriority, metricsSnapshot, openPlatform } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { startMetricsServer } from "./metrics.ts";
import { startWorkers } from "./workers.ts";

/**
 * The worker process: for multi-machine installs (docker compose, GPU servers) it needs DATABASE_URL
 * and, normally, REDIS_URL; on one machine `npm start` (the launcher) starts it as its child, on the
 * embedded database's loopback URL, so speech work never runs on the API's event loop.
 */
const config = loadConfig();
// First, before the engines start their threads: they inherit the lower priority.
const nice = lowerOwnPriority(config.WORKER_NICE);
const log = pino({ level: config.LOG_LEVEL, base: { service: "worker", pid: process.pid } });
if (!config.DATABASE_URL) {
  log.fatal("DATABASE_URL is required for a separate worker process (npm start runs workers itself)");
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
log.info(
  { queueBackend: platform.queues.kind, events: platform.events.transportKind, nice: nice ?? 0 },
  "worker started",
);
// Its own GET /metrics (docs/metrics.md): a worker has no other HTTP server, and every node exposes its own.
const metricsServer = config.METRICS_PORT > 0 ? await startMetricsServer(config, config.METRICS_PORT) : undefined;
if (metricsServer) log.info({ port: metricsServer.port }, "worker metrics listening");
// Started by the launcher: its API's /metrics adds this process's job families (answered over IPC).
process.on("message", (message: { type?: string; id?: number }) => {
  if (message?.type !== "metrics-request" || !process.send) return;
  metricsSnapshot().then(
    (snapshot) => process.send?.({ type: "metrics", id: message.id, snapshot }),
    (err) => log.error({ err }, "could not read the metrics"),
  );
});
// Started by the launcher: it opens its doors once its worker is up (engines reported in the heartbeat).
process.send?.({ type: "worker-ready" });

const closing = closeWithGrace({ delay: config.WORKER_GRACE_SECONDS * 1000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, "worker crashed");
  log.info({ signal }, "worker stopping: finishing current jobs");
  await metricsServer?.close();
  await workers.stop();
  await platform.close();
});

// Started by the launcher: when it goes away (even killed), so does this process — its database with it.
process.on("disconnect", () => {
  log.warn("the launcher is gone: stopping");
  closing.close();
});
