import type { Job, JobsOptions } from "bullmq";
import type { QueueBackend, QueueName } from "./queues.ts";

/**
 * What adding a job needs of its kind: a row of the job table (contracts/jobs.ts JOBS) fits it. Kept
 * structural, so the runtime stays below the contracts; a row whose queue is not a QueueName does not
 * compile here.
 */
export interface EnqueuedKind<P> {
  queue: QueueName;
  name: string;
  jobId(payload: P, version?: string): string;
  options: JobsOptions;
}

export interface EnqueueExtras {
  /** tells one run of the same payload from the next (the row's jobId says how) */
  version?: string;
  /** ms before the job may run (a webhook's next attempt) */
  delay?: number;
}

/**
 * THE way every producer adds a job (API services, the worker's own re-queues): the kind's queue,
 * name, options and id, from its row. The id makes a repeated add a no-op while the job is kept.
 */
export function enqueue<P>(
  queues: Pick<QueueBackend, "queue">,
  kind: EnqueuedKind<P>,
  payload: P,
  extras: EnqueueExtras = {},
): Promise<Job> {
  const jobId = kind.jobId(payload, extras.version);
  const delay = extras.delay ? { delay: extras.delay } : {};
  return queues.queue(kind.queue).add(kind.name, payload, { ...kind.options, jobId, ...delay });
}
