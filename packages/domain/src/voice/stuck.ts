import { StatusCode, voiceJobId } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { OPEN_TASK_STATES, TaskState } from "../tasks/task-state.ts";
import type { JobLookup } from "../transcription/stuck.ts";
import { failVoiceTask } from "./lifecycle.ts";
import type { VoiceTaskKind } from "./task-state.ts";

const MINUTE = 60_000;
/** A task younger than this is never judged by its job (the API enqueues right after its commit). */
const JOB_GRACE_MS = 10 * MINUTE;
const MAX_QUEUE_WAIT_MS = 24 * 60 * MINUTE;
/** The longest one voice job may run: a 10-minute song converts in a few minutes on 2 cores. */
export const VOICE_RUN_LIMIT_MS = 45 * MINUTE;

/**
 * No voice task stays open forever: one running past VOICE_RUN_LIMIT_MS, one queued for more than a
 * day, and one (older than 10 min) whose job is gone or ended without updating it, are failed and
 * refunded. Housekeeping runs it with the other kinds'. Returns how many it failed.
 */
export async function failStuckVoiceTasks(
  ctx: Pick<DomainContext, "db" | "clock" | "events" | "config">,
  options: { queue?: JobLookup } = {},
): Promise<number> {
  const now = ctx.clock.now().getTime();
  const select = { id: true, status: true, createdAt: true, startedAt: true } as const;
  const where = { status: { in: OPEN_TASK_STATES } };
  const [voices, works] = await Promise.all([
    ctx.db.userVoice.findMany({ where, select: { ...select, sourceKey: true } }),
    ctx.db.voiceWork.findMany({ where, select }),
  ]);
  const open: {
    kind: VoiceTaskKind;
    id: number;
    status: number;
    createdAt: Date;
    startedAt: Date | null;
    jobId: string;
  }[] = [
    ...voices.map((v) => ({ kind: "voice" as const, ...v, jobId: voiceJobId("voice", v.id, v.sourceKey) })),
    ...works.map((w) => ({ kind: "work" as const, ...w, jobId: voiceJobId("work", w.id) })),
  ];
  let failed = 0;
  for (const task of open) {
    const since = (task.startedAt ?? task.createdAt).getTime();
    let detail = "";
    if (task.status === TaskState.Running && now - since > VOICE_RUN_LIMIT_MS) {
      detail = `still running after ${Math.round((now - since) / MINUTE)} minutes (the worker probably stopped)`;
    } else if (task.status === TaskState.Queued && now - task.createdAt.getTime() > MAX_QUEUE_WAIT_MS) {
      detail = "waited in the queue for more than a day";
    } else if (options.queue && now - since > JOB_GRACE_MS) {
      const job = await options.queue.getJob(task.jobId);
      const state = job ? await job.getState() : "missing";
      if (state === "missing" || state === "unknown" || state === "failed" || state === "completed") {
        detail = `its queued job is ${state}`;
      }
    }
    if (!detail) continue;
    const code = task.kind === "voice" ? StatusCode.VoiceSampleRejected : StatusCode.VoiceWorkFailed;
    if (await failVoiceTask(ctx, task.kind, task.id, { code, reason: "failed", detail })) failed++;
  }
  return failed;
}
