import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Config,
  type JobOutcome,
  metricsAccess,
  metricsText,
  observeJob,
  observeTranscription,
  type QueueBackend,
  QueueName,
} from "@yuelu/runtime";
import { type Job, type Processor, UnrecoverableError } from "bullmq";
import { jobEnded, jobStarted } from "./activity.ts";
import { WORKER_JOB_ROWS } from "./jobs/table.ts";

/** `type` of yuelu_job_duration_seconds for each queue's jobs (docs/metrics.md): the job table's `metric`. */
export const JOB_TYPE: Partial<Record<QueueName, string>> = {
  [QueueName.Housekeeping]: "housekeeping",
  ...Object.fromEntries(WORKER_JOB_ROWS.map((row) => [row.def.queue, row.metric])),
};

/**
 * The same queue backend, its workers' processors timed: every attempt is observed in
 * yuelu_job_duration_seconds with its outcome, and a finished transcription adds its audio seconds
 * and realtime factor. One wrapper for every queue, so a new job type is measured without edits.
 */
export function meteredQueues(queues: QueueBackend): QueueBackend {
  return {
    ...queues,
    kind: queues.kind,
    queue: (name) => queues.queue(name),
    close: () => queues.close(),
    worker(name, processor, opts) {
      return queues.worker(name, timed(name, processor as Processor), opts);
    },
  };
}

function timed(queue: QueueName, processor: Processor): Processor {
  const type = JOB_TYPE[queue] ?? queue;
  return async (job, token, signal) => {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    jobStarted(queue);
    try {
      const result = await processor(job, token, signal);
      observeJob(type, isSkipped(result) ? "skipped" : "done", seconds());
      if (queue === QueueName.Transcription) observeTranscribed(result);
      return result;
    } catch (error) {
      observeJob(type, outcomeOfFailure(job, error), seconds());
      throw error;
    } finally {
      jobEnded();
    }
  };
}

/** failed: no attempt follows (a permanent failure, or the last attempt); retry: BullMQ tries again. */
export function outcomeOfFailure(job: Pick<Job, "attemptsMade" | "opts">, error: unknown): JobOutcome {
  if (error instanceof UnrecoverableError) return "failed";
  return job.attemptsMade + 1 >= (job.opts.attempts ?? 1) ? "failed" : "retry";
}

function isSkipped(result: unknown): boolean {
  return typeof result === "object" && result !== null && (result as { status?: unknown }).status === "skipped";
}

/** What jobs/transcribe.ts answers when a transcription is done. */
interface TranscriptionDone {
  status: "done";
  language: string;
  engine: string;
  seconds: number;
  stages: Record<string, number>;
}

function observeTranscribed(result: unknown): void {
  const done = result as Partial<TranscriptionDone> | undefined;
  if (done?.status !== "done" || typeof done.seconds !== "number" || !done.engine || !done.language) return;
  // the engine's own time: the front end (denoise, levels) is measured apart in transcribe.ts
  const recognitionMs = done.stages?.asrMs ?? Object.values(done.stages ?? {}).reduce((a, b) => a + b, 0);
  observeTranscription({
    language: done.language,
    engine: done.engine,
    audioSeconds: done.seconds,
    recognitionSeconds: recognitionMs / 1000,
  });
}

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** A client on this machine, not forwarded by a proxy (the API's isLoopbackClient, for a bare server). */
function isLoopback(request: http.IncomingMessage): boolean {
  const host = (request.headers.host ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  const forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"].some((h) => request.headers[h] !== undefined);
  return (
    ["localhost", "127.0.0.1", "::1"].includes(host) && !forwarded && LOOPBACK.has(request.socket.remoteAddress ?? "")
  );
}

/**
 * A worker process's own GET /metrics (METRICS_PORT), with the API's token rule: a worker has no
 * HTTP server otherwise, and every node exposes its own metrics. Answers the port it listens on.
 */
export async function startMetricsServer(
  config: Pick<Config, "isProduction" | "METRICS_TOKEN" | "HOST">,
  port: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    const access = metricsAccess(config, {
      authorization: request.headers.authorization,
      loopback: isLoopback(request),
    });
    if (path !== "/metrics" || request.method !== "GET" || access === "hidden") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not Found\n");
      return;
    }
    if (access === "unauthorized") {
      response
        .writeHead(401, { "content-type": "text/plain; charset=utf-8", "www-authenticate": 'Bearer realm="metrics"' })
        .end("Unauthorized\n");
      return;
    }
    metricsText().then(
      ({ contentType, body }) =>
        response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, config.HOST, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
