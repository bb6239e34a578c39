import { JOBS, StatusCode, ttsFailureReason } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { failStuckTasks, type JobLookup, MINUTE, type Stuck } from "../tasks/stuck.ts";
import { OPEN_TASK_STATES } from "../tasks/task-state.ts";
import { failTtsTask } from "./lifecycle.ts";

/** The longest a synthesis of `chars` characters may run: 10 min, plus 0.2 s a character (5000 → 26 min). */
export function ttsRunLimitMs(chars: number): number {
  return 10 * MINUTE + chars * 200;
}

/**
 * No text-to-speech task stays running forever (tasks/stuck.ts): one running past ttsRunLimitMs, one
 * queued for more than a day, and one (older than 10 min) whose BullMQ job is gone or ended without
 * updating it, are failed (40002) and refunded. Housekeeping runs it every 10 minutes. Returns how many it failed.
 */
export async function failStuckTtsTasks(
  ctx: Pick<DomainContext, "db" | "clock" | "events" | "config">,
  options: { queue?: JobLookup } = {},
): Promise<number> {
  const now = ctx.clock.now().getTime();
  const open = await ctx.db.ttsTask.findMany({
    where: { status: { in: OPEN_TASK_STATES } },
    select: { id: true, status: true, chars: true, createdAt: true, startedAt: true },
  });
  const rule = {
    limits: (task: (typeof open)[number]) => ({
      runMs: ttsRunLimitMs(task.chars),
      jobId: JOBS.tts.jobId({ taskId: task.id }),
    }),
    fail: (task: { id: number }, stuck: Stuck) =>
      failTtsTask(ctx, task.id, {
        code: StatusCode.SynthesisFailed,
        reason: ttsFailureReason(stuck.reason),
        detail: stuck.detail,
      }),
  };
  return failStuckTasks(open, rule, now, options.queue);
}
