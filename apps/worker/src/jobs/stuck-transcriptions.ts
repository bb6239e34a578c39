import { FileStatus, StatusCode, transcriptionJobId } from "@yuelu/contracts";
import { type Db, refundTranscriptionTask } from "@yuelu/db";
import { failTranscription } from "./transcribe.ts";

/** The part of a BullMQ queue this check uses (so tests can pass either backend's queue). */
export interface JobLookup {
  getJob(id: string): Promise<{ getState(): Promise<string> } | undefined | null>;
}

export interface StuckTranscriptionsResult {
  failedStuckTasks: number;
  repairedRefunds: number;
}

const MINUTE = 60_000;
/** A task younger than this is never judged by its job (the API enqueues right after its commit). */
const JOB_GRACE_MS = 10 * MINUTE;
/** How long a task may wait in the queue before it is given up. */
const MAX_QUEUE_WAIT_MS = 24 * 60 * MINUTE;

/**
 * Nothing stays "transcribing" forever: a task in status 1 for more than 3× its audio length + 30 min,
 * a task in status 3 for more than a day, and a task (older than 10 min) whose BullMQ job is gone or
 * finished without updating it, are failed (40001) and refunded. Failed tasks whose refund was missed
 * (a crash between the two writes) are refunded too.
 */
export async function failStuckTranscriptions(
  db: Db,
  options: { queue?: JobLookup; now?: Date } = {},
): Promise<StuckTranscriptionsResult> {
  const now = (options.now ?? new Date()).getTime();
  const open = await db.transcriptionTask.findMany({
    where: { status: { in: [FileStatus.InQueue, FileStatus.Transcribing] } },
    select: { id: true, status: true, createdAt: true, startedAt: true, record: { select: { timeLen: true } } },
  });
  let failedStuckTasks = 0;
  for (const task of open) {
    const limit = 3 * task.record.timeLen * 1000 + 30 * MINUTE;
    const since = (task.startedAt ?? task.createdAt).getTime();
    let reason: string | undefined;
    if (task.status === FileStatus.Transcribing && now - since > limit) {
      reason = `it was still transcribing after ${Math.round((now - since) / MINUTE)} minutes (the worker probably stopped)`;
    } else if (task.status === FileStatus.InQueue && now - task.createdAt.getTime() > MAX_QUEUE_WAIT_MS + limit) {
      reason = "it waited in the queue for more than a day";
    } else if (options.queue && now - since > JOB_GRACE_MS) {
      const job = await options.queue.getJob(transcriptionJobId(task.id));
      const state = job ? await job.getState() : "missing";
      if (state === "missing" || state === "unknown") reason = "its queued job was lost";
      else if (state === "failed" || state === "completed") reason = `its job ended (${state}) without finishing it`;
    }
    if (!reason) continue;
    const failed = await failTranscription(db, task.id, {
      code: StatusCode.TranscriptionFailed,
      message: `Transcription failed: ${reason}. The time it used has been refunded; please try again.`,
    });
    if (failed) failedStuckTasks++;
  }

  const unrefunded = await db.transcriptionTask.findMany({
    where: { status: FileStatus.Failed, refundedAt: null, secondsCharged: { gt: 0 } },
    select: { id: true },
  });
  let repairedRefunds = 0;
  for (const t of unrefunded) if (await refundTranscriptionTask(db, t.id)) repairedRefunds++;
  return { failedStuckTasks, repairedRefunds };
}
