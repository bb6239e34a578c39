import type { Readable } from "node:stream";
import { StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError, visibleRecord, visibleRecords } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { type Download, type RangeRequest, serveStored } from "../../lib/stored-file.ts";
import { mimeOf, uniqueNames, zipEntryName } from "./names.ts";

/**
 * GET /api/v3/audio/download: the original file, whole or one byte range (so `<audio>`/`<video>`
 * can seek), inline or as an attachment named after the record (UTF-8, RFC 5987).
 */
export async function openDownload(
  db: Db,
  files: FileStore,
  userId: number,
  query: { fileId: number; inline: boolean },
  request: RangeRequest,
): Promise<Download> {
  const record = await visibleRecord(db, userId, query.fileId);
  const size = await files.size(record.storageKey);
  return serveStored(files, record.storageKey, request, {
    "content-type": mimeOf(record.format),
    "content-disposition": contentDisposition(record.fileName, query.inline),
    "cache-control": "private, max-age=0, must-revalidate",
    etag: `"${record.fileId}-${size ?? 0}-${record.createdAt.getTime().toString(36)}"`,
    "last-modified": record.createdAt.toUTCString(),
  });
}

/**
 * download/batch: a zip of the records' original files, streamed as it is built (stored, not
 * deflated: media is already compressed). Names made unique inside the archive. Every id must be
 * a visible record of the user's (30001) whose file exists (20003), or nothing is sent.
 */
export async function openZip(
  deps: { db: Db; files: FileStore; log: FastifyBaseLogger },
  userId: number,
  fileIds: number[],
  now = new Date(),
): Promise<Download> {
  const { db, files, log } = deps;
  const records = await visibleRecords(db, userId, fileIds);
  const sizes = await Promise.all(records.map((r) => files.size(r.storageKey)));
  if (sizes.some((s) => s === null)) throw new AppError(StatusCode.FileNotFound);
  const names = uniqueNames(records.map((r) => zipEntryName(r.fileName)));

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const fail = (err: Error) => {
    log.error({ err }, "batch download failed while streaming");
    output.destroy(err);
  };
  zip.on("error", fail);
  records.forEach((record, i) => {
    zip.addReadStreamLazy(names[i]!, { mtime: record.createdAt, compress: false, size: sizes[i]! }, (callback) => {
      files.read(record.storageKey).then(
        (stream) => {
          stream.on("error", fail);
          callback(null, stream);
        },
        (err: Error) => callback(err, undefined as unknown as Readable),
      );
    });
  });
  // Every entry's size is known and stored as is, so yazl computes the archive's size at end() (synchronously).
  let total = -1;
  const sized = (bytes: number) => {
    total = bytes;
  };
  zip.end({ forceZip64Format: false, comment: "" }, sized as () => void);
  const stamp = now.toISOString().slice(0, 19).replace(/[-:]/g, "").replace("T", "-");
  return {
    status: 200,
    headers: {
      "content-type": "application/zip",
      "content-disposition": contentDisposition(`records-${stamp}.zip`),
      "cache-control": "private, no-store",
      ...(total >= 0 ? { "content-length": String(total) } : {}),
    },
    body: output,
  };
}
