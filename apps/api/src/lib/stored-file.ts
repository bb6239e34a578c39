import type { Readable } from "node:stream";
import { StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FileStore } from "@yuelu/runtime";
import type { FastifyReply, FastifyRequest } from "fastify";

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

/** What serveStored needs of a request: its Range header, and whether it is a HEAD (no body read). */
export interface RangeRequest {
  range?: string | undefined;
  head?: boolean | undefined;
}

export const rangeRequestOf = (request: FastifyRequest): RangeRequest => ({
  range: request.headers.range,
  head: request.method === "HEAD",
});

/** Answers with a download: its status, its headers and its body (none for HEAD or a 416). */
export function sendDownload(reply: FastifyReply, download: Download) {
  return reply
    .code(download.status)
    .headers(download.headers)
    .send(download.body ?? undefined);
}

/**
 * A stored file, whole or one byte range (so `<audio>`/`<video>` can seek, from disk or from S3),
 * with the caller's headers; 20003 when the file is not there. HEAD: the same headers, the file is
 * never opened.
 */
export async function serveStored(
  files: FileStore,
  key: string,
  request: RangeRequest,
  headers: Record<string, string>,
): Promise<Download> {
  const size = await files.size(key);
  if (size === null) throw new AppError(StatusCode.FileNotFound);
  const all = { ...headers, "accept-ranges": "bytes", "content-security-policy": "default-src 'none'; sandbox" };
  const range = parseRange(request.range, size);
  const read = (bytes?: { start: number; end: number }) => (request.head ? null : files.read(key, bytes));
  if (range.kind === "unsatisfiable") {
    return { status: 416, headers: { ...all, "content-range": `bytes */${size}` }, body: null };
  }
  if (range.kind === "partial") {
    return {
      status: 206,
      headers: {
        ...all,
        "content-range": `bytes ${range.start}-${range.end}/${size}`,
        "content-length": String(range.end - range.start + 1),
      },
      body: await read({ start: range.start, end: range.end }),
    };
  }
  return { status: 200, headers: { ...all, "content-length": String(size) }, body: await read() };
}
