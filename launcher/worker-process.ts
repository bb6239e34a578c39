import { type ChildProcess, fork } from "node:child_process";
import { connect, createServer, type Server, type Socket } from "node:net";
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
 * It sleeps when idle (WORKER_SLEEP_SECONDS, issue 44: an idle install holds no worker's memory): the
 * child exits on its own once it has had nothing to do for a while, leaving its heartbeat, which the
 * launcher keeps fresh (`standby`) so the API goes on showing what it can transcribe and speak; `wake()`
 * starts it again — a job queued here, a job due in the queues, a webhook, a live-caption session. Its
 * live-caption server is reached through a port of the launcher's own, which relays each connection to
 * the child, waking it first when it sleeps: the address in the heartbeat never changes.
 *
 * It runs in its own process group: a terminal's Ctrl-C reaches the launcher only, which stops the
 * child itself — after the HTTP server, before the database the child depends on.
 */

export interface WorkerProcess {
  /** settles once the first child has started its workers (and written its heartbeat), or has given up */
  ready: Promise<void>;
  /** whether a child runs now (not asleep) */
  readonly awake: boolean;
  /** starts the child if it sleeps; settles once it is up (or has given up) */
  wake(reason: string): Promise<void>;
  stop(): Promise<void>;
  /** the child's metrics (docs/metrics.md), for the API's /metrics; undefined when it does not answer in time */
  metrics(): Promise<MetricsSnapshot | undefined>;
}

/** What keeps a sleeping child's heartbeat alive (runtime's keepHeartbeatFresh on this process's database). */
export type HeartbeatStandby = (workerId: string) => { stop(remove: boolean): Promise<void> };

/** How long a scrape waits for the child's metrics before it answers without them. */
const METRICS_WAIT_MS = 2000;

interface ChildMessage {
  type?: string;
  id?: number;
  snapshot?: MetricsSnapshot;
  workerId?: string;
  livePort?: number;
}

export async function startWorkerProcess(options: {
  /** the database the child uses: the embedded one's loopback URL, or the configured server */
  databaseUrl: string;
  /** seconds the child lets running jobs finish when stopped */
  graceSeconds: number;
  /** seconds without work after which the child sleeps (WORKER_SLEEP_SECONDS); 0: never */
  sleepSeconds: number;
  /** keeps a sleeping child's heartbeat alive */
  standby: HeartbeatStandby;
  /** the live-caption settings the operator gave (a fixed port or public URL: then no relay, and no sleep) */
  live: { host: string; port: number; publicUrl?: string };
  log: Logger;
}): Promise<WorkerProcess> {
  const { log } = options;
  // Compiled (scripts/server-build.mjs: this file is launcher/dist/worker-process.js): the worker's
  // compiled entry, plain Node. From the TypeScript sources (`npm run dev`, tests): through tsx.
  const compiled = import.meta.url.endsWith(".js");
  const entry = compiled
    ? fileURLToPath(new URL("../../apps/worker/dist/main.js", import.meta.url))
    : fileURLToPath(import.meta.resolve("@yuelu/worker/main"));
  const execArgv = compiled ? [] : ["--import", import.meta.resolve("tsx")];

  // The relay of live captions: only where the operator left the worker's live port to us.
  const relay = options.live.port === 0 && !options.live.publicUrl ? await startRelay(options.live.host) : undefined;
  const sleepSeconds = relay ? options.sleepSeconds : 0;

  let child: ChildProcess | undefined;
  let stopping = false;
  let asleep = false;
  /** the child's live-caption port, once it said */
  let livePort: number | undefined;
  let standby: { stop(remove: boolean): Promise<void> } | undefined;
  let markReady = () => {};
  const ready = new Promise<void>((resolve) => {
    markReady = resolve;
  });
  /** settles when the child now starting is up (or has exited) */
  let up: Promise<void> = ready;
  let delay = 1000;
  let timer: NodeJS.Timeout | undefined;
  let metricsAsked = 0;
  const metricsWaiting = new Map<number, (snapshot: MetricsSnapshot | undefined) => void>();

  const start = () => {
    const startedAt = Date.now();
    let sleepingAs: string | undefined;
    let markUp = () => {};
    up = new Promise<void>((resolve) => {
      markUp = resolve;
    });
    const proc = fork(entry, [], {
      execArgv,
      env: {
        ...process.env,
        // two malloc arenas, not one per thread: the recognisers' native buffers otherwise stay held per thread
        // (a 3-hour recording peaked ~90 MiB lower: bench/README.md "A long recording")
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
        DATABASE_URL: options.databaseUrl,
        // The launcher migrated and seeded; the worker only connects.
        DB_AUTO_MIGRATE: "false",
        WORKER_GRACE_SECONDS: String(options.graceSeconds),
        YUELU_WORKER_SLEEP_SECONDS: String(sleepSeconds),
        ...(relay ? { LIVE_PUBLIC_URL: relay.url } : {}),
      },
      detached: true,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    child = proc;
    log.info({ pid: proc.pid }, "worker process started");
    proc.on("message", (message: ChildMessage) => {
      if (message?.type === "worker-ready") {
        livePort = message.livePort;
        markReady();
        markUp();
        // the heartbeat kept for the child that slept is the new child's now
        const kept = standby;
        standby = undefined;
        void kept?.stop(true);
      }
      if (message?.type === "sleeping") sleepingAs = message.workerId;
      if (message?.type === "metrics") metricsWaiting.get(message.id ?? -1)?.(message.snapshot);
    });
    proc.on("exit", (code, signal) => {
      markReady(); // a worker that cannot start must not keep the API from serving
      markUp();
      if (child === proc) child = undefined;
      livePort = undefined;
      if (stopping) return;
      if (sleepingAs && code === 0) {
        asleep = true;
        standby = options.standby(sleepingAs);
        log.info({ pid: proc.pid }, "worker process asleep: woken by the next job");
        return;
      }
      // A child that ran a while before dying starts again at once; one that keeps dying waits longer.
      delay = Date.now() - startedAt > 60_000 ? 1000 : Math.min(delay * 2, 30_000);
      log.error({ code, signal, restartInMs: delay }, "worker process exited; starting it again");
      timer = setTimeout(start, delay);
    });
  };
  start();

  const wake = async (reason: string) => {
    if (asleep && !stopping) {
      asleep = false;
      log.info({ reason }, "waking the worker process");
      start();
    }
    await up;
  };

  // A live-caption connection for a sleeping child wakes it; each is relayed to the child's port.
  relay?.onConnection(async (socket) => {
    await wake("live captions");
    const port = livePort;
    if (!port) {
      socket.destroy();
      return;
    }
    const upstream = connect(port, "127.0.0.1");
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
    socket.pipe(upstream).pipe(socket);
    socket.resume();
  });

  return {
    ready,
    get awake() {
      return !asleep;
    },
    wake,
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
      await relay?.close();
      await standby?.stop(true);
      const proc = child;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
      proc.kill("SIGTERM");
      await exited;
    },
  };
}

/** A port of the launcher's own for the worker's live captions (connections arrive paused). */
async function startRelay(host: string) {
  let handle: (socket: Socket) => Promise<void> = async (socket) => void socket.destroy();
  const open = new Set<Socket>();
  const server: Server = createServer({ pauseOnConnect: true }, (socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
    handle(socket).catch(() => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host, () => resolve());
  });
  const address = server.address() as { port: number; address: string };
  const at = address.address.includes(":") ? `[${address.address}]` : address.address;
  return {
    url: `ws://${at}:${address.port}/live`,
    onConnection(fn: (socket: Socket) => Promise<void>) {
      handle = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}
