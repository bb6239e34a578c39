import { loadConfig, lowerOwnPriority, metricsSnapshot, openPlatform } from "@yuelu/runtime";
import closeWithGrace from "close-with-grace";
import pino from "pino";
import { activity, touched } from "./activity.ts";
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
// Started by the launcher: it learns where this worker's live captions listen (it relays them while it sleeps).
process.send?.({ type: "worker-ready", workerId: workers.workerId, livePort: workers.livePort });

let sleeping = false;
const closing = closeWithGrace({ delay: config.WORKER_GRACE_SECONDS * 1000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, "worker crashed");
  if (!sleeping) log.info({ signal }, "worker stopping: finishing current jobs");
  await metricsServer?.close();
  await workers.stop({ keepHeartbeat: sleeping });
  await platform.close();
});

// `npm start`'s worker child sleeps when idle (launcher/worker-process.ts): nothing running, no live-caption
// session, no model download, for WORKER_SLEEP_SECONDS — or ENGINE_IDLE_SECONDS once it served users' jobs,
// so their models stay loaded between jobs. The launcher keeps its heartbeat fresh and starts it again
// the moment there is work.
const sleepAfter = Number(process.env.YUELU_WORKER_SLEEP_SECONDS ?? 0);
if (sleepAfter > 0 && process.send) {
  const check = setInterval(() => {
    if (workers.busy()) return touched();
    const after = activity.servedUsers ? Math.max(sleepAfter, config.ENGINE_IDLE_SECONDS) : sleepAfter;
    if (activity.idleMs() < after * 1000) return;
    clearInterval(check);
    sleeping = true;
    log.info(
      { idleSeconds: Math.round(activity.idleMs() / 1000) },
      "worker going to sleep: the launcher wakes it for the next job",
    );
    process.send?.({ type: "sleeping", workerId: workers.workerId }, () => closing.close());
  }, 1000);
  check.unref();
}

// Started by the launcher: when it goes away (even killed), so does this process — its database with it.
process.on("disconnect", () => {
  log.warn("the launcher is gone: stopping");
  closing.close();
});
