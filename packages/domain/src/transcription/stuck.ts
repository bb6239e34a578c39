import { failureReason, StatusCode, type TranscriptionFailure, transcriptionJobId } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { failTask } from "./lifecycle.ts";
import { OPEN_TASK_STATES, TaskState } from "./task-state.ts";

/** The part of a BullMQ queue this check uses (so tests can pass either backend's queue). */
export interface JobLookup {
  getJob(id: string): Promise<{ getState(): Promise<string> } | undefined | null>;
}

const MINUTE = 60_000;
/** A task younger than this is never judged by its job (the API enqueues right after its commit). */
const JOB_GRACE_MS = 10 * MINUTE;
/** How long a task may wait in the queue before it is given up. */
const MAX_QUEUE_WAIT_MS = 24 * 60 * MINUTE;

/**
 * Nothing stays "transcribing" forever: a task running for more than 3× its audio length + 30 min,
 * a task queued for more than a day, and a task (older than 10 min) whose BullMQ job is gone or
 * ended without updating it, are failed (40001) and refunded. Returns how many it failed.
 */
export async function failStuckTranscriptions(
  ctx: Pick<DomainContext, "db" | "clock" | "events" | "config">,
  options: { queue?: JobLookup } = {},
): Promise<number> {
  const now = ctx.clock.now().getTime();
  const open = await ctx.db.transcriptionTask.findMany({
    where: { status: { in: OPEN_TASK_STATES } },
    select: { id: true, status: true, createdAt: true, startedAt: true, record: { select: { timeLen: true } } },
  });
  let failed = 0;
  for (const task of open) {
    const limit = 3 * task.record.timeLen * 1000 + 30 * MINUTE;
    const since = (task.startedAt ?? task.createdAt).getTime();
    let reason: TranscriptionFailure | undefined;
    let detail = "";
    if (task.status === TaskState.Running && now - since > limit) {
      reason = "stuck-running";
      detail = `still transcribing after ${Math.round((now - since) / MINUTE)} minutes (the worker probably stopped)`;
    } else if (task.status === TaskState.Queued && now - task.createdAt.getTime() > MAX_QUEUE_WAIT_MS + limit) {
      reason = "stuck-queued";
      detail = "waited in the queue for more than a day";
    } else if (options.queue && now - since > JOB_GRACE_MS) {
      const job = await options.queue.getJob(transcriptionJobId(task.id));
      const state = job ? await job.getState() : "missing";
      if (state === "missing" || state === "unknown" || state === "failed" || state === "completed") {
        reason = "job-lost";
        detail = `its queued job is ${state}`;
      }
    }
    if (!reason) continue;
    const code = StatusCode.TranscriptionFailed;
    if (await failTask(ctx, task.id, { code, reason: failureReason(reason), detail })) failed++;
  }
  return failed;
}
