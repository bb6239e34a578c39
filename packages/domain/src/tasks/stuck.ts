import { TaskState } from "./task-state.ts";

/**
 * THE stuck rule every kind of task shares (housekeeping runs it through the job table): nothing stays
 * open forever. A task running past its kind's limit, one queued past its limit (a day), and one older
 * than 10 minutes whose BullMQ job is gone or ended without updating it, are failed by its kind (which
 * refunds it). Each kind's stuck.ts only lists its open tasks, gives their limits and says how to fail one.
 */

/** The part of a BullMQ queue this check uses (so tests can pass either backend's queue). */
export interface JobLookup {
  getJob(id: string): Promise<{ getState(): Promise<string> } | undefined | null>;
}

export const MINUTE = 60_000;
/** A task younger than this is never judged by its job (the API enqueues right after its commit). */
const JOB_GRACE_MS = 10 * MINUTE;
/** How long a task may wait in the queue before it is given up. */
export const MAX_QUEUE_WAIT_MS = 24 * 60 * MINUTE;
/** Job states that mean nobody will run the task any more. */
const ENDED_JOB_STATES = new Set(["missing", "unknown", "failed", "completed"]);

/** Why a task was given up: every kind's failure catalogue has words for these. */
export type StuckReason = "stuck-running" | "stuck-queued" | "job-lost";

export interface Stuck {
  reason: StuckReason;
  /** for operators: what was seen */
  detail: string;
}

export interface OpenTask {
  status: number;
  createdAt: Date;
  startedAt: Date | null;
}

export interface StuckLimits {
  /** the longest one run of the task may take */
  runMs: number;
  /** the longest it may wait in the queue (default: a day) */
  queuedMs?: number;
  /** its job's id (the job table's), judged when a queue is given */
  jobId: string;
  /** what a running task is said to be doing (default "running") */
  doing?: string;
}

/** Whether an open task is stuck, and why; undefined when it is not. */
export async function stuckVerdict(
  task: OpenTask,
  limits: StuckLimits,
  now: number,
  queue?: JobLookup,
): Promise<Stuck | undefined> {
  const since = (task.startedAt ?? task.createdAt).getTime();
  if (task.status === TaskState.Running && now - since > limits.runMs) {
    const minutes = Math.round((now - since) / MINUTE);
    const detail = `still ${limits.doing ?? "running"} after ${minutes} minutes (the worker probably stopped)`;
    return { reason: "stuck-running", detail };
  }
  if (task.status === TaskState.Queued && now - task.createdAt.getTime() > (limits.queuedMs ?? MAX_QUEUE_WAIT_MS)) {
    return { reason: "stuck-queued", detail: "waited in the queue for more than a day" };
  }
  if (!queue || now - since <= JOB_GRACE_MS) return undefined;
  const job = await queue.getJob(limits.jobId);
  const state = job ? await job.getState() : "missing";
  return ENDED_JOB_STATES.has(state) ? { reason: "job-lost", detail: `its queued job is ${state}` } : undefined;
}

/** How one kind judges and fails its open tasks. */
export interface StuckRule<T extends OpenTask> {
  limits(task: T): StuckLimits;
  /** fails the task (and refunds it); false when it had already left its open state */
  fail(task: T, stuck: Stuck): Promise<boolean>;
}

/** Fails every stuck task of `open` by its kind's rule; returns how many it failed. */
export async function failStuckTasks<T extends OpenTask>(
  open: readonly T[],
  rule: StuckRule<NoInfer<T>>,
  now: number,
  queue?: JobLookup,
): Promise<number> {
  let failed = 0;
  for (const task of open) {
    const stuck = await stuckVerdict(task, rule.limits(task), now, queue);
    if (stuck && (await rule.fail(task, stuck))) failed++;
  }
  return failed;
}
