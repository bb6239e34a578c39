import type { Prisma } from "@yuelu/db";
import type { TranscriptChange } from "@yuelu/runtime";
import type { AfterCommit, Tx } from "../transaction.ts";

/**
 * Every write of a transcript — the worker's finished transcript, a paragraph edit, a speaker rename, a
 * summary, an AI note's result — goes through writeTranscript, inside the writer's transact(): the row's
 * fields change, its version goes up by one, and `transcript.changed` is announced with the kind of change
 * and the new version. transact()'s handlers then index it for search and write the webhook outbox
 * (`transcript.updated`) in the same transaction; the bus tells every process once it has committed. One
 * call is one change, however many segments it touches.
 */

export interface TranscriptFields {
  asrResult?: Prisma.InputJsonValue;
  language?: string;
  abstracts?: string;
  audioReport?: Prisma.InputJsonValue | Prisma.NullableJsonNullValueInput;
}

export interface TranscriptWrite {
  fileId: number;
  /** the record's owner (whose webhooks hear of it) */
  userId: number;
  change: TranscriptChange;
  fields: TranscriptFields;
  /**
   * Only over this version (an edit made on it): the update is conditional on the row still carrying it,
   * and writes nothing otherwise (answers null). Not for the worker's finished transcript.
   */
  expectedVersion?: number;
}

/**
 * Writes the transcript and announces the change; answers its version, or null when the record has no
 * transcript (only the worker's finished transcript creates one: an edit or a note of a transcript deleted
 * meanwhile writes nothing) or, with `expectedVersion`, when the transcript is at another version.
 */
export async function writeTranscript(
  tx: Tx,
  after: AfterCommit,
  write: TranscriptWrite,
): Promise<{ version: number; updatedAt: Date } | null> {
  const { fileId, fields } = write;
  const select = { version: true, updatedAt: true } as const;
  const saved =
    write.change === "finished"
      ? await tx.transcript.upsert({
          where: { fileId },
          create: {
            fileId,
            asrResult: fields.asrResult ?? [],
            language: fields.language ?? "auto",
            ...(fields.abstracts !== undefined ? { abstracts: fields.abstracts } : {}),
            ...(fields.audioReport !== undefined ? { audioReport: fields.audioReport } : {}),
          },
          update: { ...fields, version: { increment: 1 } },
          select,
        })
      : (
          await tx.transcript.updateManyAndReturn({
            where: { fileId, ...(write.expectedVersion !== undefined ? { version: write.expectedVersion } : {}) },
            data: { ...fields, version: { increment: 1 } },
            select,
          })
        )[0];
  if (!saved) return null;
  after.publish({
    type: "transcript.changed",
    userId: write.userId,
    fileId,
    change: write.change,
    version: saved.version,
  });
  return saved;
}
