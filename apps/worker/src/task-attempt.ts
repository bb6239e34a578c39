import { type Job, UnrecoverableError } from "bullmq";

/**
 * One attempt of a task's job, the same for every kind of task (the job table's rows settled as tasks:
 * transcription, synthesis, voice, notes; startTaskWorker runs it with the row's failure catalogue):
 * a task that is gone ends the job quietly; a failure another attempt cannot fix, or the last
 * attempt's, fails the task (which refunds it); an earlier one puts it back in the queue and lets
 * BullMQ retry. A permanent failure is thrown as UnrecoverableError so BullMQ does not retry it.
 */
export interface TaskAttempt<F extends { reason: string }> {
  /** the row's label ("transcription", "synthesis", "voice", "note"): names the attempt in the log */
  label: string;
  /** ids for the log line */
  ids: Record<string, unknown>;
  run(): Promise<unknown>;
  isGone(error: unknown): boolean;
  isPermanent(error: unknown): boolean;
  failureOf(error: unknown): F;
  fail(failure: F): Promise<unknown>;
  retry(): Promise<unknown>;
}

export async function runTaskAttempt<F extends { reason: string }>(
  job: Pick<Job, "attemptsMade" | "opts">,
  attempt: TaskAttempt<F>,
  log: { error(obj: unknown, msg?: string): void },
): Promise<unknown> {
  try {
    return await attempt.run();
  } catch (error) {
    if (attempt.isGone(error)) return { status: "skipped", reason: (error as Error).message };
    const permanent = attempt.isPermanent(error);
    const number = job.attemptsMade + 1;
    const final = permanent || number >= (job.opts.attempts ?? 1);
    log.error({ err: error, ...attempt.ids, attempt: number, final }, `${attempt.label} attempt failed`);
    const failure = attempt.failureOf(error);
    if (final) await attempt.fail(failure);
    else await attempt.retry();
    if (permanent) throw new UnrecoverableError(failure.reason);
    throw error;
  }
}
