import { FileStatus, MAX_UPLOAD_SECONDS } from "@yuelu/contracts";
import { type AudioRecordModel, type Db, Prisma } from "@yuelu/db";
import type { DomainContext } from "../context.ts";
import { claimLiveCredit } from "../wallet/live-charge.ts";
import { safeFileName } from "./names.ts";
import { releaseStorage } from "./storage.ts";

/**
 * An upload becomes a record (docs/records-api.md "Upload"): the step the one-request upload and the
 * resumable (tus) upload share once their file is measured and stored. The HTTP part — streaming into a
 * temp file, the signature check, the measure — stays with the API.
 */

/** The longest upload a record may hold (spec §5: 5 hours): the API's measure stops past it. */
export const UPLOAD_MAX_SECONDS = MAX_UPLOAD_SECONDS;

export interface MeasuredUpload {
  userId: number;
  /** a folder of the user's checked earlier (one deleted since: the record goes to no folder) */
  menuId: number | null;
  /** the client's id of the upload (retry-safe): a second upload with it answers the first's record */
  uploadId: string | null;
  /** the name as the user gave it (made safe here) and the accepted extension */
  fileName: string;
  format: string;
  fileSize: bigint;
  /** seconds of audio it decodes to (records/probe.ts): what it is charged */
  duration: number;
  sampleRate: number;
  channels: number;
  codec: string;
  storageKey: string;
  /** the recording's live-caption sessions, comma-separated: their charge is credited to it */
  liveSessionId?: string | undefined;
  /** the storage hold taken while it was stored (domain/records/storage.ts): released now */
  holdId?: string | undefined;
}

/** Whole seconds of a measured duration (timeLen: what is charged), to the nearest second, at least 1. */
export function secondsOf(duration: number): number {
  return Math.max(1, Math.round(duration));
}

/**
 * Creates the record of an upload, credits the live captions it was made with, and lets go of its
 * storage hold (the record counts in its place). Two uploads racing with one uploadId: the loser gets
 * the winner's record, `kept` false — the caller removes its own stored file.
 */
export async function acceptUpload(
  ctx: Pick<DomainContext, "db" | "events">,
  upload: MeasuredUpload,
): Promise<{ record: AudioRecordModel; kept: boolean }> {
  try {
    const record = await createRecord(ctx.db, {
      userId: upload.userId,
      menuId: upload.menuId,
      uploadId: upload.uploadId,
      fileName: safeFileName(upload.fileName, upload.format),
      format: upload.format,
      fileSize: upload.fileSize,
      timeLen: secondsOf(upload.duration),
      sampleRate: upload.sampleRate,
      channels: upload.channels,
      codec: upload.codec,
      storageKey: upload.storageKey,
      fileStatus: FileStatus.Waiting,
    });
    const kept = record.storageKey === upload.storageKey;
    // a recording made with live captions: what they were charged is credited to its transcription
    await claimLiveCredit(ctx, { userId: upload.userId, fileId: record.fileId, liveSessionId: upload.liveSessionId });
    return { record, kept };
  } finally {
    if (upload.holdId) await releaseStorage(ctx.db, upload.holdId);
  }
}

/**
 * The record an earlier upload with this uploadId created (retry-safe); one in the bin lets go of the id
 * (the retry uploads afresh) and answers null.
 */
export async function earlierUpload(db: Db, userId: number, uploadId: string): Promise<AudioRecordModel | null> {
  const earlier = await db.audioRecord.findUnique({ where: { userId_uploadId: { userId, uploadId } } });
  if (!earlier) return null;
  if (earlier.deletedAt) {
    await db.audioRecord.updateMany({
      where: { fileId: earlier.fileId, deletedAt: { not: null } },
      data: { uploadId: null },
    });
    return null;
  }
  return earlier;
}

/**
 * Inserts the record. Two uploads racing with one uploadId: the loser answers the winner's record
 * (its own file is then removed by the caller). A folder deleted meanwhile: the record goes to no folder.
 */
async function createRecord(db: Db, data: Prisma.AudioRecordUncheckedCreateInput): Promise<AudioRecordModel> {
  try {
    return await db.audioRecord.create({ data });
  } catch (error) {
    if (!(error instanceof Prisma.PrismaClientKnownRequestError)) throw error;
    if (error.code === "P2002" && data.uploadId) {
      const winner = await db.audioRecord.findUnique({
        where: { userId_uploadId: { userId: data.userId, uploadId: data.uploadId } },
      });
      if (winner && !winner.deletedAt) return winner;
    }
    if (error.code === "P2003" && data.menuId) return db.audioRecord.create({ data: { ...data, menuId: null } });
    throw error;
  }
}
