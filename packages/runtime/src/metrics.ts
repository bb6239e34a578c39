import { createHash, timingSafeEqual } from "node:crypto";
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { queueDepths } from "./queue-admin.ts";
import type { QueueBackend } from "./queues.ts";

/**
 * The Prometheus metrics of one process (docs/metrics.md): one registry, the families dashboards and
 * alerts depend on (their names are a contract), and Node's default process families. Every process
 * (API, worker) exposes its own; the queue gauges are read from BullMQ at scrape time, so every node
 * reports the same queue numbers.
 */

export const QUEUE_STATES = ["waiting", "active", "delayed", "failed"] as const;
/** `outcome` of yuelu_job_duration_seconds: done, skipped (the task was gone), retry (another attempt follows), failed (final) */
export const JOB_OUTCOMES = ["done", "skipped", "retry", "failed"] as const;
export type JobOutcome = (typeof JOB_OUTCOMES)[number];
/** `status` of yuelu_payments_total: an order placed, paid (goods granted, once), closed (timed out), failed (the payer or provider closed it) */
export type PaymentStatus = "created" | "paid" | "closed" | "failed";

interface Metrics {
  registry: Registry;
  httpDuration: Histogram<"method" | "route" | "status_code">;
  queueJobs: Gauge<"queue" | "state">;
  jobDuration: Histogram<"type" | "outcome">;
  transcribedSeconds: Counter<"language" | "engine">;
  asrRealtimeFactor: Histogram<"engine">;
  payments: Counter<"provider" | "status">;
  /** the queue backends the gauges may read; the latest one still open is read */
  queueSources: QueueBackend[];
  /** other processes whose job families this process's scrape adds in (the launcher's worker child) */
  jobSources: (() => Promise<MetricsSnapshot | undefined>)[];
}

/** A registry's metrics as JSON (what crosses the launcher's IPC channel). */
export type MetricsSnapshot = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const queueSources: QueueBackend[] = [];
  const registers = [registry];
  return {
    registry,
    queueSources,
    jobSources: [],
    httpDuration: new Histogram({
      name: "yuelu_http_request_duration_seconds",
      help: "HTTP requests by method, route pattern and status code",
      labelNames: ["method", "route", "status_code"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    queueJobs: new Gauge({
      name: "yuelu_queue_jobs",
      help: "Jobs in each queue by state, read from the queue backend at scrape time",
      labelNames: ["queue", "state"],
      registers,
      async collect() {
        const source = queueSources.at(-1);
        if (!source) return;
        const depths = await queueDepths(source);
        this.reset();
        for (const depth of depths)
          for (const state of QUEUE_STATES) this.set({ queue: depth.name, state }, depth[state]);
      },
    }),
    jobDuration: new Histogram({
      name: "yuelu_job_duration_seconds",
      help: "Job attempts run by this process, by job type and outcome",
      labelNames: ["type", "outcome"],
      buckets: [0.05, 0.1, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600, 7200],
      registers,
    }),
    transcribedSeconds: new Counter({
      name: "yuelu_transcribed_audio_seconds_total",
      help: "Seconds of audio transcribed by this process, by transcript language and ASR engine",
      labelNames: ["language", "engine"],
      registers,
    }),
    asrRealtimeFactor: new Histogram({
      name: "yuelu_asr_realtime_factor",
      help: "Recognition time divided by audio length, per finished transcription and ASR engine",
      labelNames: ["engine"],
      buckets: [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5],
      registers,
    }),
    payments: new Counter({
      name: "yuelu_payments_total",
      help: "Orders by payment provider and what happened to them (created, paid, closed, failed)",
      labelNames: ["provider", "status"],
      registers,
    }),
  };
}

// One set per process, even when this module is loaded twice (tests build several apps in one
// process; tsx and vitest may resolve the package by two paths): a second registration of the
// default families would throw, and two registries would each see half of the observations.
const KEY = Symbol.for("yuelu.metrics");
const holder = globalThis as { [KEY]?: Metrics };
export const metrics: Metrics = holder[KEY] ?? create();
holder[KEY] = metrics;

/**
 * Lets the queue gauges read this backend's queues (the latest registered is read: every backend of
 * one installation sees the same queues). Returns the undo, for a backend that closes.
 */
export function exposeQueues(backend: QueueBackend): () => void {
  metrics.queueSources.push(backend);
  return () => {
    const at = metrics.queueSources.lastIndexOf(backend);
    if (at >= 0) metrics.queueSources.splice(at, 1);
  };
}

export function observeHttp(labels: { method: string; route: string; status_code: number }, seconds: number): void {
  metrics.httpDuration.observe({ ...labels, status_code: String(labels.status_code) }, seconds);
}

export function observeJob(type: string, outcome: JobOutcome, seconds: number): void {
  metrics.jobDuration.observe({ type, outcome }, seconds);
}

/** A finished transcription: its audio length, and how long recognition took (the realtime factor). */
export function observeTranscription(done: {
  language: string;
  engine: string;
  audioSeconds: number;
  recognitionSeconds: number;
}): void {
  if (!(done.audioSeconds > 0)) return;
  metrics.transcribedSeconds.inc({ language: done.language, engine: done.engine }, done.audioSeconds);
  metrics.asrRealtimeFactor.observe({ engine: done.engine }, done.recognitionSeconds / done.audioSeconds);
}

export function countPayment(provider: string, status: PaymentStatus, count = 1): void {
  if (count > 0) metrics.payments.inc({ provider, status }, count);
}

/** The text a scrape gets, and its content type: this process's metrics, plus its job sources' job families. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  const { registry, jobSources } = metrics;
  if (jobSources.length === 0) return { contentType: registry.contentType, body: await registry.metrics() };
  const own = (await registry.getMetricsAsJSON()).map((m) =>
    // a family only this process has stays as it is ("omit" would drop process_start_time_seconds)
    m.aggregator === "omit" ? { ...m, aggregator: "first" as const } : m,
  );
  const others = await Promise.all(jobSources.map((source) => source().catch(() => undefined)));
  const merged = AggregatorRegistry.aggregate([own, ...others.filter((o) => o !== undefined).map(jobFamilies)]);
  return { contentType: registry.contentType, body: await merged.metrics() };
}

/**
 * The families another process adds to this one's scrape: what it did (jobs, audio, payments), summed.
 * Not its queue gauges (the same numbers this process reads) nor its process and Node families.
 */
function jobFamilies(snapshot: MetricsSnapshot): MetricsSnapshot {
  return snapshot.filter((m) => m.name.startsWith("yuelu_") && m.name !== "yuelu_queue_jobs");
}

/** This process's metrics as JSON, for a process that adds them to its own scrape (addJobSource). */
export function metricsSnapshot(): Promise<MetricsSnapshot> {
  return metrics.registry.getMetricsAsJSON();
}

/**
 * Adds another process's job families to this process's /metrics: the launcher's API covers the
 * worker child it started (`npm start`), whose jobs would otherwise be seen by no scrape. Returns the undo.
 */
export function addJobSource(source: () => Promise<MetricsSnapshot | undefined>): () => void {
  metrics.jobSources.push(source);
  return () => {
    const at = metrics.jobSources.indexOf(source);
    if (at >= 0) metrics.jobSources.splice(at, 1);
  };
}

/**
 * Who may read /metrics: outside production a client on this machine (loopback, not forwarded) may,
 * without a token; everyone else needs `Authorization: Bearer $METRICS_TOKEN`. With no token set the
 * endpoint does not exist for them ("hidden": the same 404 as any unknown path).
 */
export function metricsAccess(
  config: { isProduction: boolean; METRICS_TOKEN?: string },
  request: { authorization?: string; loopback: boolean },
): "allow" | "unauthorized" | "hidden" {
  if (!config.isProduction && request.loopback) return "allow";
  if (!config.METRICS_TOKEN) return "hidden";
  const given = /^Bearer\s+(\S+)\s*$/i.exec(request.authorization ?? "")?.[1];
  if (!given) return "unauthorized";
  // equal-length digests: the comparison takes the same time whatever the guess
  const digest = (s: string) => createHash("sha256").update(s).digest();
  return timingSafeEqual(digest(given), digest(config.METRICS_TOKEN)) ? "allow" : "unauthorized";
}
