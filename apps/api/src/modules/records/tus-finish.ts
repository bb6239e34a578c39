import { randomUUID } from "node:crypto";
import type { Upload } from "@tus/utils";
import { type Lang, StatusCode, type UploadResult, ZUploadQuery } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError, acceptUpload, releaseStorage, uploadExtension } from "@yuelu/domain";
import type { FileStore, UploadArea } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import type { MediaTools } from "./probe.ts";
import { probe, type StorageContext, UploadRefused, uploadResult } from "./upload.ts";

/** What a tus hook needs to know of the request it runs for. */
export interface TusCall {
  userId: number;
  lang: Lang;
  method: string;
  log: FastifyBaseLogger;
  /** the upload the route matched and checked the owner of (absent on creation and discovery) */
  uploadId?: string;
  /** a creation's body length (creation-with-upload): what it holds of the user's storage while deferred */
  bytesComing?: number;
  /** set when the request's bytes completed the upload: removed from the area once answered */
  finished?: string;
}

export interface FinishDeps {
  area: UploadArea;
  db: Db;
  domain: StorageContext;
  files: FileStore;
  tools: MediaTools;
}

/**
 * The record's `uploadId` for a tus upload: its id in the URL, so a finished upload is found again
 * (HEAD after a lost answer) and a second finish cannot make a second record.
 */
export function receiptId(id: string): string {
  return `tus-${id.slice(id.lastIndexOf("/") + 1)}`;
}

/**
 * The last byte has landed: ffprobe on the upload (readable media with an audio track, ≤ 5 h), then its
 * bytes are copied into the file store under a key of the owner's and the record is created exactly
 * as the one-request upload creates it. Any refusal or failure removes the upload and the copy; the
 * caller removes the upload once the answer is written.
 */
export async function finishUpload(deps: FinishDeps, call: TusCall, upload: Upload): Promise<UploadResult> {
  const metadata = upload.metadata ?? {};
  const filename = metadata.filename ?? "";
  const ext = uploadExtension(filename);
  const key = `media/${call.userId}/${randomUUID()}.${ext}`;
  let copied = false;
  let kept = false;
  try {
    if (!ext) throw new UploadRefused("extension");
    const facts = await deps.area.withLocalFile(upload.id, (file) => probe(file, call.lang, deps.tools));
    try {
      await deps.area.keep(upload.id, deps.files, key);
      copied = true;
    } catch (error) {
      call.log.error({ err: error, key }, "could not store a finished upload");
      throw new AppError(StatusCode.FileSaveFailed);
    }
    const accepted = await acceptUpload(deps.domain, {
      userId: call.userId,
      menuId: menuOf(metadata.menuId),
      uploadId: receiptId(upload.id),
      fileName: filename,
      format: ext,
      fileSize: BigInt(upload.size ?? upload.offset),
      duration: facts.duration,
      sampleRate: facts.sampleRate,
      channels: facts.channels,
      codec: facts.codec,
      storageKey: key,
      liveSessionId: metadata.liveSessionId ?? undefined,
      holdId: upload.id,
    });
    kept = accepted.kept;
    return uploadResult(accepted.record);
  } catch (error) {
    await deps.area.discard(upload.id).catch((err) => call.log.error({ err }, "could not remove a refused upload"));
    throw error;
  } finally {
    // a record now counts in its place, or the upload is gone: either way its hold goes
    await releaseStorage(deps.db, upload.id).catch((err) =>
      call.log.error({ err }, "could not release a storage hold"),
    );
    if (copied && !kept) {
      await deps.files.delete(key).catch((err) => call.log.error({ err, key }, "could not remove a refused upload"));
    }
  }
}

/** The folder checked at creation (a folder deleted since: createRecord puts the record in none). */
function menuOf(raw: string | null | undefined): number | null {
  if (!raw) return null;
  const parsed = ZUploadQuery.safeParse({ menuId: raw });
  return parsed.success ? parsed.data.menuId : null;
}

/**
 * HEAD of an upload that is no longer in the area: when it finished as one of this user's records,
 * the headers of a complete upload and the record's id (Yuelu-File-Id), so a client that lost the
 * answer to its last PATCH learns it is done instead of starting again.
 */
export async function receiptOf(db: Db, userId: number, id: string): Promise<Record<string, string> | null> {
  const record = await db.audioRecord.findUnique({
    where: { userId_uploadId: { userId, uploadId: receiptId(id) } },
    select: { fileId: true, fileSize: true, deletedAt: true },
  });
  if (!record || record.deletedAt) return null;
  const size = String(record.fileSize);
  return { "upload-offset": size, "upload-length": size, "yuelu-file-id": String(record.fileId) };
}
