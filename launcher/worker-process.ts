import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { MetricsSnapshot } from "@yuelu/runtime";
import type { Logger } from "pino";

/**
 * The launcher's worker: `apps/worker`'s own entry, run as a child process on the same configuration
 * and, with the embedded database, on that database's loopback URL. Speech work (decoding, VAD,
 * recognition, voice prints, synthesis) then never runs on the API's event loop, and the child lowers
 * its own CPU priority (WORKER_NICE), so requests stay fast on a 2-core laptop while a long file is
 * transcribed. A child that dies is started again (1 s, doubling to 30 s while it keeps dying).
 *
 * It runs in its own process group: a terminal's Ctrl-C reaches the launcher only, which stops the
 * child itself — after the HTTP server, before the database the child depends on.
 */

export interface WorkerProcess {
  /** settles once the first child has started its workers (and written its heartbeat), or has given up */
  ready: Promise<void>;
  stop(): Promise<void>;
  /** the child's metrics (docs/metrics.md), for the API's /metrics; undefined when it does not answer in time */
  metrics(): Promise<MetricsSnapshot | undefined>;
}

/** How long a scrape waits for the child's metrics before it answers without them. */
const METRICS_WAIT_MS = 2000;

export function startWorkerProcess(options: {
  /** the database the child uses: the embedded one's loopback URL, or the configured server */
  databaseUrl: string;
  /** seconds the child lets running jobs finish when stopped */
  graceSeconds: number;
  log: Logger;
}): WorkerProcess {
  const { log } = options;
  const entry = fileURLToPath(import.meta.resolve("@yuelu/worker/main"));
  const tsx = import.meta.resolve("tsx");
  let child: ChildProcess | undefined;
  let stopping = false;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  let delay = 1000;
  let timer: NodeJS.Timeout | undefined;
  let metricsAsked = 0;
  const metricsWaiting = new Map<number, (snapshot: MetricsSnapshot | undefined) => void>();

  const start = () => {
    const startedAt = Date.now();
    const proc = fork(entry, [], {
      execArgv: ["--import", tsx],
      env: {
        ...process.env,
        DATABASE_URL: options.databaseUrl,
        // The launcher migrated and seeded; the worker only connects.
        DB_AUTO_MIGRATE: "false",
        WORKER_GRACE_SECONDS: String(options.graceSeconds),
      },
      detached: true,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child = proc;
    log.info({ pid: proc.pid }, "worker process started");
    proc.on("message", (message: { type?: string; id?: number; snapshot?: MetricsSnapshot }) => {
      if (message?.type === "worker-ready") markReady();
      if (message?.type === "metrics") metricsWaiting.get(message.id ?? -1)?.(message.snapshot);
    });
    proc.on("exit", (code, signal) => {
      markReady(); // a worker that cannot start must not keep the API from serving
      if (child === proc) child = undefined;
      if (stopping) return;
      // A child that ran a while before dying starts again at once; one that keeps dying waits longer.
      delay = Date.now() - startedAt > 60_000 ? 1000 : Math.min(delay * 2, 30_000);
      log.error({ code, signal, restartInMs: delay }, "worker process exited; starting it again");
      timer = setTimeout(start, delay);
    });
  };
  start();

  return {
    ready,
    metrics() {
      const proc = child;
      if (!proc?.connected) return Promise.resolve(undefined);
      const id = ++metricsAsked;
      return new Promise((resolve) => {
        const done = (snapshot: MetricsSnapshot | undefined) => {
          clearTimeout(timeout);
          metricsWaiting.delete(id);
          resolve(snapshot);
        };
        const timeout = setTimeout(() => done(undefined), METRICS_WAIT_MS);
        metricsWaiting.set(id, done);
        proc.send({ type: "metrics-request", id }, (error) => error && done(undefined));
      });
    },
    async stop() {
      stopping = true;
      clearTimeout(timer);
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.kill("SIGTERM");
      await exited;
    },
  };
}
