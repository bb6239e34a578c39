import { failureReason, JOBS, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { failStuckTasks, type JobLookup, MAX_QUEUE_WAIT_MS, MINUTE, type Stuck } from "../tasks/stuck.ts";
import { OPEN_TASK_STATES } from "../tasks/task-state.ts";
import { failTask } from "./lifecycle.ts";

/** A transcription may run 3× its audio length + 30 min (a slow CPU engine on a long recording). */
function runLimitMs(audioSeconds: number): number {
  return 3 * audioSeconds * 1000 + 30 * MINUTE;
}

/**
 * Nothing stays "transcribing" forever (tasks/stuck.ts): a task running for more than 3× its audio
 * length + 30 min, a task queued for more than a day (plus that), and a task (older than 10 min) whose
 * BullMQ job is gone or ended without updating it, are failed (40001) and refunded. Returns how many it failed.
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
  const rule = {
    limits: (task: (typeof open)[number]) => {
      const runMs = runLimitMs(task.record.timeLen);
      const jobId = JOBS.transcription.jobId({ taskId: task.id });
      return { runMs, queuedMs: MAX_QUEUE_WAIT_MS + runMs, jobId, doing: "transcribing" };
    },
    fail: (task: { id: number }, stuck: Stuck) =>
      failTask(ctx, task.id, {
        code: StatusCode.TranscriptionFailed,
        reason: failureReason(stuck.reason),
        detail: stuck.detail,
      }),
  };
  return failStuckTasks(open, rule, now, options.queue);
}
