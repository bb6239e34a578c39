import type { Readable } from "node:stream";
import { StatusCode } from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { AppError } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyBaseLogger } from "fastify";
import { ZipFile } from "yazl";
import { contentDisposition } from "../../lib/content-disposition.ts";
import { mimeOf, uniqueNames, zipEntryName } from "./names.ts";
import { visibleRecord, visibleRecords } from "./service.ts";

export type ByteRange = { kind: "full" } | { kind: "partial"; start: number; end: number } | { kind: "unsatisfiable" };

/**
 * One `Range: bytes=…` header against a file of `size` bytes (RFC 9110 §14). Several ranges, other
 * units or bad syntax are ignored (the whole file answers, which the RFC allows); a range that starts
 * past the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange {
  if (!header) return { kind: "full" };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: "full" };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "" && last === "") return { kind: "full" };
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size) return { kind: "unsatisfiable" };
  if (end < start) return { kind: "full" };
  return { kind: "partial", start, end };
}

export interface Download {
  status: 200 | 206 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

/**
 * GET /api/v3/audio/download: the original file, whole or one byte range (so `<audio>`/`<video>`
 * can seek), inline or as an attachment named after the record (UTF-8, RFC 5987).
 */
export async function openDownload(
  db: Db,
  files: FileStore,
  userId: number,
  query: { fileId: number; inline: boolean },
  request: { range?: string | undefined; head?: boolean },
): Promise<Download> {
  const record = await visibleRecord(db, userId, query.fileId);
  const size = await files.size(record.storageKey);
  if (size === null) throw new AppError(StatusCode.FileNotFound);
  const headers: Record<string, string> = {
    "content-type": mimeOf(record.format),
    "content-disposition": contentDisposition(record.fileName, query.inline),
    "accept-ranges": "bytes",
    "cache-control": "private, max-age=0, must-revalidate",
    etag: `"${record.fileId}-${size}-${record.createdAt.getTime().toString(36)}"`,
    "last-modified": record.createdAt.toUTCString(),
    "content-security-policy": "default-src 'none'; sandbox",
  };
  const range = parseRange(request.range, size);
  // HEAD: the same headers, and the file is never opened.
  const read = (bytes?: { start: number; end: number }) => (request.head ? null : files.read(record.storageKey, bytes));
  if (range.kind === "unsatisfiable") {
    return { status: 416, headers: { ...headers, "content-range": `bytes */${size}` }, body: null };
  }
  if (range.kind === "partial") {
    return {
      status: 206,
      headers: {
        ...headers,
        "content-range": `bytes ${range.start}-${range.end}/${size}`,
        "content-length": String(range.end - range.start + 1),
      },
      body: read({ start: range.start, end: range.end }),
    };
  }
  return { status: 200, headers: { ...headers, "content-length": String(size) }, body: read() };
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
      const stream = files.read(record.storageKey);
      stream.on("error", fail);
      callback(null, stream);
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
