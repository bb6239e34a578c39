import { StatusCode } from "@yuelu/contracts";
import type { DomainContext } from "../context.ts";
import { AppError } from "../errors.ts";
import { settleNoteTask } from "../notes/budget.ts";
import { OPEN_TASK_STATES } from "../tasks/task-state.ts";
import { transact } from "../transaction.ts";
import { refundTranscription } from "../wallet/transcription-charge.ts";

/**
 * delete_forever: records of the user's that are in the recycle bin go for good, all or none (30001
 * when one is not the user's or not in the bin). One transaction locks the records (a parallel
 * restore either runs first, and then this call answers 30001 and changes nothing, or waits and
 * finds them gone), locks their queued or running transcriptions, refunds those — the deletion is
 * what justifies the refund — settles their unfinished AI notes (what a note did not use of the day's
 * LLM budget goes back, as when it is cancelled) and deletes the rows (transcripts and tasks with them, by cascade; a
 * worker still running one finds its task gone and stops). The files go after the commit; a file
 * that cannot be removed is reported through `onFileError`, not fatal: the record is gone either way.
 */
export async function deleteRecordsForever(
  ctx: DomainContext,
  userId: number,
  fileIds: number[],
  onFileError: (error: unknown, storageKey: string) => void = () => {},
): Promise<{ fileIds: number[] }> {
  const storageKeys = await transact(ctx, async (tx) => {
    const binned = await tx.$queryRaw<{ fileId: number; storageKey: string }[]>`
      SELECT "fileId", "storageKey" FROM audio_records
      WHERE "fileId" = ANY(${fileIds}::int[]) AND "userId" = ${userId}::int AND "deletedAt" IS NOT NULL
      ORDER BY "fileId"
      FOR UPDATE`;
    if (binned.length !== fileIds.length) throw new AppError(StatusCode.RecordNotFound);
    const open = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM transcription_tasks
      WHERE "fileId" = ANY(${fileIds}::int[]) AND status = ANY(${OPEN_TASK_STATES}::int[])
      ORDER BY id
      FOR UPDATE`;
    const unsettledNotes = await tx.$queryRaw<{ id: number }[]>`
      SELECT id FROM note_tasks
      WHERE "fileId" = ANY(${fileIds}::int[]) AND "settledAt" IS NULL
      ORDER BY id
      FOR UPDATE`;
    const now = ctx.clock.now();
    for (const task of open) await refundTranscription(tx, task.id, now);
    for (const note of unsettledNotes) await settleNoteTask(tx, note.id, now);
    // the records' clips go with them (by cascade), and their files after the commit (docs/clips.md)
    const clips = await tx.clip.findMany({
      where: { fileId: { in: fileIds } },
      select: { storageKey: true, audioKey: true },
    });
    await tx.audioRecord.deleteMany({ where: { fileId: { in: fileIds }, userId } });
    return [...binned.map((r) => r.storageKey), ...new Set(clips.flatMap((c) => [c.storageKey, c.audioKey]))].filter(
      (key): key is string => !!key,
    );
  });
  for (const key of storageKeys) {
    await ctx.files.delete(key).catch((error) => onFileError(error, key));
  }
  return { fileIds };
}
