import { StatusCode, type TtsFailure, ttsFailureReason, ttsJobId } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import type { JobLookup } from "../transcription/stuck.ts";
import { TaskState } from "../transcription/task-state.ts";
import { failTtsTask } from "./lifecycle.ts";
import { TTS_OPEN_STATES } from "./task-state.ts";

const MINUTE = 60_000;
/** A task younger than this is never judged by its job (the API enqueues right after its commit). */
const JOB_GRACE_MS = 10 * MINUTE;
const MAX_QUEUE_WAIT_MS = 24 * 60 * MINUTE;

/** The longest a synthesis of `chars` characters may run: 10 min, plus 0.2 s a character (5000 → 26 min). */
export function ttsRunLimitMs(chars: number): number {
  return 10 * MINUTE + chars * 200;
}

/**
 * No text-to-speech task stays running forever: one running past ttsRunLimitMs, one queued for more
 * than a day, and one (older than 10 min) whose BullMQ job is gone or ended without updating it, are
 * failed (40002) and refunded. Housekeeping runs it every 10 minutes. Returns how many it failed.
 */
export async function failStuckTtsTasks(
  ctx: Pick<DomainContext, "db" | "clock" | "events" | "config">,
  options: { queue?: JobLookup } = {},
): Promise<number> {
  const now = ctx.clock.now().getTime();
  const open = await ctx.db.ttsTask.findMany({
    where: { status: { in: TTS_OPEN_STATES } },
    select: { id: true, status: true, chars: true, createdAt: true, startedAt: true },
  });
  let failed = 0;
  for (const task of open) {
    const since = (task.startedAt ?? task.createdAt).getTime();
    let reason: TtsFailure | undefined;
    let detail = "";
    if (task.status === TaskState.Running && now - since > ttsRunLimitMs(task.chars)) {
      reason = "stuck-running";
      detail = `still running after ${Math.round((now - since) / MINUTE)} minutes (the worker probably stopped)`;
    } else if (task.status === TaskState.Queued && now - task.createdAt.getTime() > MAX_QUEUE_WAIT_MS) {
      reason = "stuck-queued";
      detail = "waited in the queue for more than a day";
    } else if (options.queue && now - since > JOB_GRACE_MS) {
      const job = await options.queue.getJob(ttsJobId(task.id));
      const state = job ? await job.getState() : "missing";
      if (state === "missing" || state === "unknown" || state === "failed" || state === "completed") {
        reason = "job-lost";
        detail = `its queued job is ${state}`;
      }
    }
    if (!reason) continue;
    const failure = { code: StatusCode.SynthesisFailed, reason: ttsFailureReason(reason), detail };
    if (await failTtsTask(ctx, task.id, failure)) failed++;
  }
  return failed;
}
