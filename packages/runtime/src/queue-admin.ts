import type { Job } from "bullmq";
import { type QueueBackend, QueueName } from "./queues.ts";

/**
 * What the operator console and `npm run admin -- jobs …` see of the job queues: depths, failed jobs,
 * and retrying or removing them. Only the Queue API is used, so it works on whichever backend is
 * configured (BullMQ on Redis, or on PostgreSQL when there is no Redis).
 */

export const QUEUE_NAMES: QueueName[] = Object.values(QueueName);

export interface QueueDepth {
  name: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

export async function queueDepths(backend: QueueBackend): Promise<QueueDepth[]> {
  return Promise.all(
    QUEUE_NAMES.map(async (name) => {
      const counts = await backend
        .queue(name)
        .getJobCounts("waiting", "prioritized", "active", "delayed", "failed", "completed");
      return {
        name,
        // prioritized jobs wait too
        waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        completed: counts.completed ?? 0,
      };
    }),
  );
}

export interface FailedJob {
  queue: QueueName;
  id: string;
  name: string;
  failedReason: string;
  attemptsMade: number;
  /** tries allowed (the job's `attempts` option, 1 when unset) */
  attempts: number;
  data: unknown;
  createdAt: Date | null;
  processedAt: Date | null;
  failedAt: Date | null;
}

function failedJobOf(queue: QueueName, job: Job): FailedJob {
  const at = (ms: number | undefined) => (ms ? new Date(ms) : null);
  return {
    queue,
    id: String(job.id),
    name: job.name,
    failedReason: job.failedReason ?? "",
    attemptsMade: job.attemptsMade,
    attempts: job.opts.attempts ?? 1,
    data: job.data,
    createdAt: at(job.timestamp),
    processedAt: at(job.processedOn),
    failedAt: at(job.finishedOn),
  };
}

/**
 * Failed jobs, newest failure first, of one queue or of all of them (merged by failure time), paged.
 * `total` is the number of failed jobs.
 */
export async function failedJobs(
  backend: QueueBackend,
  options: { queue?: QueueName; skip: number; take: number; order?: "asc" | "desc" },
): Promise<{ items: FailedJob[]; total: number }> {
  const names = options.queue ? [options.queue] : QUEUE_NAMES;
  const { skip, take } = options;
  const perQueue = await Promise.all(
    names.map(async (name) => {
      const queue = backend.queue(name);
      const total = await queue.getFailedCount();
      // newest first in each queue: the first skip+take of each are enough to page the merge
      const jobs = (await queue.getFailed(0, skip + take - 1)).filter(Boolean) as Job[];
      return { total, jobs: jobs.map((job) => failedJobOf(name, job)) };
    }),
  );
  const when = (j: FailedJob) => j.failedAt?.getTime() ?? 0;
  const merged = perQueue.flatMap((q) => q.jobs).sort((a, b) => when(b) - when(a));
  const ordered = options.order === "asc" ? merged.reverse() : merged;
  return { items: ordered.slice(skip, skip + take), total: perQueue.reduce((sum, q) => sum + q.total, 0) };
}

/** A failed job, or undefined when the queue has no such job or it is not failed. */
export async function failedJob(backend: QueueBackend, queue: QueueName, id: string): Promise<FailedJob | undefined> {
  const job = (await backend.queue(queue).getJob(id)) as Job | undefined;
  if (!job || (await job.getState()) !== "failed") return undefined;
  return failedJobOf(queue, job);
}

/**
 * Sends a failed job back to the queue with its tries counted from zero again; false when there is
 * no such failed job. The job's handler decides what a retry does (the database row is the truth).
 */
export async function retryFailedJob(backend: QueueBackend, queue: QueueName, id: string): Promise<boolean> {
  const job = (await backend.queue(queue).getJob(id)) as Job | undefined;
  if (!job || (await job.getState()) !== "failed") return false;
  await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
  return true;
}

/** Removes a failed job; false when there is no such failed job (waiting and running jobs are left alone). */
export async function removeFailedJob(backend: QueueBackend, queue: QueueName, id: string): Promise<boolean> {
  const job = (await backend.queue(queue).getJob(id)) as Job | undefined;
  if (!job || (await job.getState()) !== "failed") return false;
  await job.remove();
  return true;
}

/** The most jobs one retry-all moves (a runaway queue is retried in several calls). */
const RETRY_ALL_MAX = 10_000;

/**
 * Retries every failed job of one queue (or of all), each with its tries counted from zero again as
 * retryFailedJob does (BullMQ's bulk retryJobs would keep the tries made); answers how many.
 */
export async function retryAllFailed(backend: QueueBackend, queue?: QueueName): Promise<number> {
  let retried = 0;
  for (const name of queue ? [queue] : QUEUE_NAMES) {
    const q = backend.queue(name);
    while (retried < RETRY_ALL_MAX) {
      const jobs = ((await q.getFailed(0, 99)) as (Job | undefined)[]).filter((j): j is Job => Boolean(j));
      let moved = 0;
      for (const job of jobs) {
        try {
          await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
          moved += 1;
        } catch {
          // removed or retried by someone else meanwhile
        }
      }
      retried += moved;
      if (moved === 0) break;
    }
  }
  return retried;
}
