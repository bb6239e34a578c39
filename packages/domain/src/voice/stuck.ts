import { JOBS, StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { failStuckTasks, type JobLookup, MINUTE } from "../tasks/stuck.ts";
import { OPEN_TASK_STATES } from "../tasks/task-state.ts";
import { failVoiceTask } from "./lifecycle.ts";
import type { VoiceTaskKind } from "./task-state.ts";

/** The longest one voice job may run: a 10-minute song converts in a few minutes on 2 cores. */
export const VOICE_RUN_LIMIT_MS = 45 * MINUTE;

/**
 * No voice task stays open forever (tasks/stuck.ts): one running past VOICE_RUN_LIMIT_MS, one queued for
 * more than a day, and one (older than 10 min) whose job is gone or ended without updating it, are
 * failed and refunded. Housekeeping runs it with the other kinds'. Returns how many it failed.
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
  const open = [
    // a voice's job id carries the sample it was (re)trained on
    ...voices.map((v) => ({ ...v, kind: "voice" as VoiceTaskKind, version: v.sourceKey })),
    ...works.map((w) => ({ ...w, kind: "work" as VoiceTaskKind, version: undefined })),
  ];
  const rule = {
    limits: (task: (typeof open)[number]) => ({
      runMs: VOICE_RUN_LIMIT_MS,
      jobId: JOBS.voice.jobId({ kind: task.kind, id: task.id }, task.version),
    }),
    fail: (task: (typeof open)[number], stuck: { detail: string }) => {
      const code = task.kind === "voice" ? StatusCode.VoiceSampleRejected : StatusCode.VoiceWorkFailed;
      return failVoiceTask(ctx, task.kind, task.id, { code, reason: "failed", detail: stuck.detail });
    },
  };
  return failStuckTasks(open, rule, now, options.queue);
}
