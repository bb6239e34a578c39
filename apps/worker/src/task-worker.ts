import { type QueueBackend, QueueName } from "@yuelu/runtime";
import { type Job, UnrecoverableError, type Worker, type WorkerOptions } from "bullmq";
import { type TaskDomain, WORKER_JOB_ROWS, type WorkerJob } from "./jobs/table.ts";
import { runTaskAttempt } from "./task-attempt.ts";

/**
 * THE way a kind of job gets its BullMQ worker (every starter uses it: workers.ts, tts-worker.ts,
 * voice-worker.ts, notes-worker.ts, webhook-worker.ts): the row of the job table (jobs/table.ts) says
 * the queue, the job's name and payload, how a failure is settled and the lock defaults; the starter
 * gives the handler, made with its process's engines.
 */

export interface TaskWorkerContext {
  queues: Pick<QueueBackend, "worker">;
  log: { error(obj: unknown, msg?: string): void };
  /** what a task's failure and retry write with (needed by rows settled as tasks) */
  domain?: TaskDomain;
}

/** The BullMQ settings a worker's options may set (tests shorten the locks to see a killed worker sooner). */
export interface TaskWorkerSettings {
  /** jobs at once per process (default 1) */
  concurrency?: number;
  lockDuration?: number;
  stalledInterval?: number;
  maxStalledCount?: number;
}

/** One attempt of a job: the payload its row's schema parsed, and the BullMQ job (attempts, timestamp). */
export type JobHandler<P> = (payload: P, job: Job<P>) => Promise<unknown>;

export function startTaskWorker<P>(
  ctx: TaskWorkerContext,
  row: WorkerJob<P>,
  handler: JobHandler<P>,
  settings: TaskWorkerSettings = {},
): Worker<P> {
  const attempt = attemptOf(ctx, row, handler);
  const worker = ctx.queues.worker<P>(
    row.def.queue,
    async (job) => attempt(job, payloadOf(row, job)),
    workerOptions(row, settings),
  );
  worker.on("error", (error) => ctx.log.error({ err: error }, `${row.label} worker error`));
  if (row.settle.kind === "own") {
    worker.on("failed", (job, error) => ctx.log.error({ err: error, jobId: job?.id }, `${row.label} job failed`));
  }
  return worker;
}

/** The job's payload, checked against its kind: a job of another name or a bad payload is never retried. */
function payloadOf<P>(row: WorkerJob<P>, job: Job<P>): P {
  if (job.name !== row.def.name) throw new UnrecoverableError(`unknown job name ${job.name}`);
  const parsed = row.def.payload.safeParse(job.data);
  if (!parsed.success) throw new UnrecoverableError(`invalid ${row.label} job payload`);
  return parsed.data;
}

/** One attempt, its failure settled as the row says (table.ts Settlement). */
function attemptOf<P>(
  ctx: TaskWorkerContext,
  row: WorkerJob<P>,
  handler: JobHandler<P>,
): (job: Job<P>, payload: P) => Promise<unknown> {
  const { settle, label } = row;
  switch (settle.kind) {
    case "task": {
      const domain = ctx.domain;
      // a programming error, found at start rather than at a task's first failure
      if (!domain) throw new Error(`the ${label} worker needs the domain to fail and retry its tasks`);
      const { failures } = settle;
      return (job, payload) =>
        runTaskAttempt(
          job,
          {
            label,
            ids: payload as Record<string, unknown>,
            run: () => handler(payload, job),
            isGone: failures.isGone,
            isPermanent: failures.isPermanent,
            failureOf: failures.failureOf,
            fail: (failure) => failures.fail(domain, payload, failure),
            retry: () => failures.retry(domain, payload),
          },
          ctx.log,
        );
    }
    case "once":
      return async (job, payload) => {
        try {
          return await handler(payload, job);
        } catch (error) {
          ctx.log.error({ err: error, ...payload }, `${label} failed`);
          throw new UnrecoverableError(settle.reasonOf(error));
        }
      };
    case "own":
      return (job, payload) => handler(payload, job);
  }
}

/** The row's lock defaults under the worker's own settings; unset ones are left to BullMQ. */
function workerOptions(row: WorkerJob<unknown>, settings: TaskWorkerSettings): Partial<WorkerOptions> {
  const options: Partial<WorkerOptions> = {
    concurrency: settings.concurrency ?? 1,
    lockDuration: settings.lockDuration ?? row.worker.lockDuration,
    stalledInterval: settings.stalledInterval ?? row.worker.stalledInterval,
    maxStalledCount: settings.maxStalledCount ?? row.worker.maxStalledCount,
  };
  // an explicit undefined would replace BullMQ's own default
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
}

/**
 * The boot guard (immich's JobRepository.setup()): every queue has exactly one handler in this
 * process. A kind of job with no worker (its jobs would wait forever), a queue with two, a worker on a
 * queue nothing declares, or two kinds sharing one queue (one would never be run) stops the worker at start.
 */
export function assertEveryQueueHandled(
  workers: readonly { name: string }[],
  rows: readonly Pick<WorkerJob<unknown>, "def">[] = WORKER_JOB_ROWS,
): void {
  const rowQueues = rows.map((row) => row.def.queue as string);
  const shared = rowQueues.filter((queue, i) => rowQueues.indexOf(queue) !== i);
  if (shared.length) throw new Error(`two kinds of job share the queue "${shared[0]}"; give each its own`);
  const declared = new Set<string>([...Object.values(QueueName), ...rowQueues]);
  const names = workers.map((w) => w.name);
  for (const queue of declared) {
    const handlers = names.filter((n) => n === queue).length;
    if (handlers !== 1)
      throw new Error(`queue "${queue}" has ${handlers} handlers in this worker; it needs exactly one`);
  }
  const unknown = names.filter((n) => !declared.has(n));
  if (unknown.length) throw new Error(`workers for undeclared queues: ${unknown.join(", ")}`);
}
