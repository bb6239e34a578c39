import { randomUUID } from "node:crypto";
import path from "node:path";
import type { Db } from "@yuelu/db";
import { type Clock, type DomainContext, systemClock } from "@yuelu/domain";
import {
  type Config,
  cookieSecret,
  type DomainEvent,
  describeTools,
  type EventPublisher,
  exposeQueues,
  type FileStore,
  openUploadArea,
  type QueueBackend,
  QueueName,
  startHeartbeat,
  toolReports,
} from "@yuelu/runtime";
import { activity } from "./activity.ts";
import { type ClipsWorkerOptions, startClipsWorker } from "./clips-worker.ts";
import { type AsrEngineResolver, configuredAsrEngines, engineReports, modelsWanted } from "./engines/asr/factory.ts";
import { releaseIdleResources, setEngineIdleSeconds } from "./engines/idle.ts";
import { ttsEngineReports } from "./engines/tts/factory.ts";
import { runHousekeeping } from "./jobs/housekeeping.ts";
import { WORKER_JOBS } from "./jobs/table.ts";
import { transcribe } from "./jobs/transcribe.ts";
import { startLiveCaptions } from "./live/index.ts";
import { meteredQueues } from "./metrics.ts";
import { ModelProvisioner } from "./models/provisioner.ts";
import { withModelSources } from "./models/report.ts";
import { modelSources } from "./models/sources.ts";
import { type NotesWorkerOptions, startNotesWorker } from "./notes-worker.ts";
import { speakerEmbedder } from "./speech/speaker-prints.ts";
import { assertEveryQueueHandled, startTaskWorker } from "./task-worker.ts";
import { startTtsWorker, type TtsWorkerOptions } from "./tts-worker.ts";
import { startVoiceWorker, type VoiceWorkerOptions } from "./voice-worker.ts";
import { startWebhookWorker, type WebhookWorkerOptions } from "./webhook-worker.ts";

export interface WorkerContext {
  db: Db;
  config: Config;
  queues: QueueBackend;
  files: FileStore;
  /**
   * where the business rules announce what changed (the platform's event bus); with `subscribe`,
   * webhook deliveries are queued the moment they are written (else by the sweep)
   */
  events: EventPublisher & { subscribe?(handler: (event: DomainEvent) => void): void };
  log: {
    info(obj: unknown, msg?: string): void;
    warn(obj: unknown, msg?: string): void;
    error(obj: unknown, msg?: string): void;
  };
  clock?: Clock;
  /** ASR engines per language; default: the configured ones (configuredAsrEngines) */
  asr?: AsrEngineResolver;
  /** fetches missing speech models (startWorkers makes one from the config) */
  models?: ModelProvisioner;
}

/** BullMQ settings of the transcription worker (tests shorten the lock to see a killed worker sooner). */
export interface TranscriptionWorkerOptions {
  /** jobs at once per process (default TRANSCRIBE_CONCURRENCY) */
  concurrency?: number;
  /** a killed worker's job is taken back this long after its last lock renewal */
  lockDuration?: number;
  stalledInterval?: number;
  /** how often a job may be taken back from a dead worker before it fails */
  maxStalledCount?: number;
  /** least time between two progress writes of a job (ms) */
  progressEveryMs?: number;
  /** recording (ms) recognised between two checkpoints of a transcription (default TRANSCRIBE_CHECKPOINT_SECONDS) */
  checkpointEveryMs?: number;
}

const HOUSEKEEPING_EVERY_MS = 10 * 60 * 1000;

function domainOf(ctx: WorkerContext): DomainContext {
  return { db: ctx.db, clock: ctx.clock ?? systemClock, events: ctx.events, config: ctx.config, files: ctx.files };
}

/**
 * Starts one BullMQ worker per queue this build handles, schedules the periodic jobs, and reports
 * this worker's engines in its heartbeat (runtime/worker-registry.ts). Used by the worker process
 * (apps/worker/src/main.ts) and, on a single machine, by the launcher. `stop()` removes the heartbeat;
 * closing the queue backend stops the BullMQ workers.
 */
export async function startWorkers(
  given: WorkerContext,
  options: {
    transcription?: TranscriptionWorkerOptions;
    tts?: TtsWorkerOptions;
    voice?: VoiceWorkerOptions;
    notes?: NotesWorkerOptions;
    webhooks?: WebhookWorkerOptions;
    clips?: ClipsWorkerOptions;
  } = {},
): Promise<{
  workerId: string;
  /** the live-caption server's port, when it runs */
  livePort?: number;
  /** whether something here must not be cut: a job running, a live-caption session, a model download */
  busy(): boolean;
  /** `keepHeartbeat`: a worker going to sleep leaves its row for the launcher to keep fresh */
  stop(options?: { keepHeartbeat?: boolean }): Promise<void>;
}> {
  // every job attempt timed for /metrics (metrics.ts); the queue gauges read this installation's queues
  const ctx = { ...given, queues: meteredQueues(given.queues) };
  const hideQueues = exposeQueues(given.queues);
  const { config, queues, log } = ctx;
  const domain = domainOf(ctx);
  setEngineIdleSeconds(config.ENGINE_IDLE_SECONDS);
  log.info({ tools: toolReports(undefined, config) }, `worker tools: ${describeTools(toolReports(undefined, config))}`);

  // Speech models: fetched in the background when missing (ASR_AUTO_FETCH), from the first model
  // source that serves them (sources.ts); every change of their state (downloading n% from a source,
  // ready, failed at each source) is reported at once through the heartbeat.
  let beatSoon = () => {};
  const models =
    ctx.models ??
    new ModelProvisioner({
      sources: modelSources(config),
      autoFetch: config.ASR_AUTO_FETCH,
      sha256: config.ASR_MODEL_SHA256,
      log,
      onChange: () => beatSoon(),
    });
  const withModels = { ...ctx, models };

  const uploads = openUploadArea(config, ctx.files);
  const webhooks = startWebhookWorker({ domain, config, queues, events: ctx.events, log }, options.webhooks);
  const housekeeping = queues.worker(QueueName.Housekeeping, async () => {
    const result = await runHousekeeping(domain, { uploads, queues });
    log.info(result, "housekeeping done");
    return result;
  });
  housekeeping.on("failed", (job, error) => log.error({ err: error, jobId: job?.id }, "housekeeping failed"));

  const tts = startTtsWorker(ctx, options.tts);
  assertEveryQueueHandled([
    housekeeping,
    startTranscriptionWorker(withModels, options.transcription),
    tts.synthesis,
    tts.samples,
    startVoiceWorker(ctx, options.voice),
    // always: with no LLM_URL a job that arrives anyway fails at once (the API refuses to queue one: 70002)
    startNotesWorker(ctx, options.notes),
    // clips cut from records (docs/clips.md)
    startClipsWorker(ctx, options.clips),
    webhooks.worker,
  ]);
  // deliveries written while no worker ran (their notices went unheard) go out now, not at the next sweep
  await webhooks.requeueDue().catch((error) => log.error({ err: error }, "could not queue the due webhook deliveries"));

  // Idempotent: every worker process upserts the same scheduler id, so it runs once per period.
  await queues
    .queue(QueueName.Housekeeping)
    .upsertJobScheduler("housekeeping", { every: HOUSEKEEPING_EVERY_MS }, { name: "housekeeping" });

  const workerId = randomUUID();
  // live captions while recording (docs/live.md): this worker's streaming server, announced in its heartbeat
  // the live sockets' token, unless LIVE_TOKEN is set, is derived from the cookie secret the API signs with
  const secret = await cookieSecret(config).catch((error) => {
    log.error({ err: error }, "could not read the cookie secret");
    return undefined;
  });
  const live = await startLiveCaptions({ workerId, log, domain, cookieSecret: secret }).catch((error) => {
    log.error({ err: error }, "live captions could not start");
    return undefined;
  });
  const heartbeat = startHeartbeat(
    ctx.db,
    workerId,
    () => [
      ...withModelSources(engineReports(config, models), config, models),
      ...ttsEngineReports(config),
      ...(live?.reports() ?? []),
    ],
    (err) => log.error({ err }, "could not write the worker heartbeat"),
    () => toolReports(undefined, config),
  );
  beatSoon = throttle(
    () => heartbeat.beat().catch((err) => log.error({ err }, "could not write the worker heartbeat")),
    2000,
  );
  await heartbeat.beat();
  if (!ctx.asr) for (const want of modelsWanted(config)) models.ensure(want);
  return {
    workerId,
    ...(live ? { livePort: live.server.port } : {}),
    busy: () => activity.running > 0 || (live?.hub.held ?? 0) > 0 || models.downloading,
    stop: async (options = {}) => {
      hideQueues();
      models.stop();
      webhooks.stop();
      await live?.close();
      await (options.keepHeartbeat ? heartbeat.pause() : heartbeat.stop());
      await releaseIdleResources();
    },
  };
}

/**
 * The "transcription" queue: job "transcribe" `{taskId}` (the job table's `transcription` row: attempts
 * 3, exponential backoff); between attempts the task goes back to "in queue"; the final failure (or one
 * another attempt cannot fix: an engine not installed, the wrong language) fails the task, which refunds it.
 */
export function startTranscriptionWorker(ctx: WorkerContext, options: TranscriptionWorkerOptions = {}) {
  const { config, queues, files, log } = ctx;
  const domain = domainOf(ctx);
  const asr = ctx.asr ?? configuredAsrEngines(config, ctx.models);
  if (!ctx.asr) {
    // Say what is missing (with the paths, for the operator). The models themselves are loaded by the
    // first job that needs them and let go when idle (engines/idle.ts, ENGINE_IDLE_SECONDS): an idle
    // worker holds none of them.
    engineReports(config, ctx.models, (detail, language) => log.warn({ language }, detail));
  }
  return startTaskWorker(
    { queues, log, domain },
    WORKER_JOBS.transcription,
    ({ taskId }, job) =>
      transcribe(taskId, {
        domain,
        files,
        asr,
        log,
        progressEveryMs: options.progressEveryMs,
        checkpointEveryMs: options.checkpointEveryMs ?? config.TRANSCRIBE_CHECKPOINT_SECONDS * 1000,
        queuedAt: job.timestamp,
        speakers: speakerEmbedder(config.DATA_DIR, log),
        // on the data disk, where the product's temporary files go (the system's /tmp may be memory)
        spoolDir: path.join(config.DATA_DIR, "tmp"),
      }),
    { ...options, concurrency: options.concurrency ?? config.TRANSCRIBE_CONCURRENCY },
  );
}

/** `run` at most once per `ms`: a call within the window is folded into one at its end. */
function throttle(run: () => void, ms: number): () => void {
  let last = 0;
  let timer: NodeJS.Timeout | undefined;
  return () => {
    const wait = last + ms - Date.now();
    if (wait <= 0) {
      last = Date.now();
      run();
    } else {
      timer ??= setTimeout(() => {
        timer = undefined;
        last = Date.now();
        run();
      }, wait);
      timer.unref();
    }
  };
}
