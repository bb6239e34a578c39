import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Downloads one file: resumable (an interrupted download continues from its `.part` with an HTTP
 * Range request), verified (SHA-1, SHA-256 or the git blob SHA-1 a hub publishes for small files),
 * and atomic (the file appears under its name only once complete and verified). Nothing is trusted
 * unchecked: without a checksum to compare with, the download is refused.
 */

export interface Checksum {
  sha1?: string;
  sha256?: string;
  /** git's blob id: SHA-1 of "blob <size>\0" + content (what a hub's ETag is for files kept in git) */
  gitSha1?: string;
}

export type DownloadFailure = "unreachable" | "http" | "checksum" | "interrupted" | "no-checksum";

export class DownloadError extends Error {
  constructor(
    readonly kind: DownloadFailure,
    message: string,
  ) {
    super(message);
    this.name = "DownloadError";
  }
}

export interface DownloadOptions {
  url: string;
  dest: string;
  /** what the file must hash to; `undefined` asks the hub (`hubChecksum`) */
  expected?: Checksum;
  onProgress?: (received: number, total: number | undefined) => void;
  signal?: AbortSignal;
  /** how long to wait for the server to answer at all */
  connectTimeoutMs?: number;
}

const hasChecksum = (c: Checksum | undefined): c is Checksum => Boolean(c && (c.sha1 || c.sha256 || c.gitSha1));

/**
 * The checksum a Hugging Face–style hub publishes for a file: the SHA-256 of a file kept in LFS
 * (`X-Linked-Etag`, or an ETag of 64 hex digits), or the git blob SHA-1 of a small one (an ETag of
 * 40 hex digits). Undefined when the server says neither (a plain web server).
 */
export async function hubChecksum(url: string, signal?: AbortSignal): Promise<Checksum | undefined> {
  let res: Response;
  try {
    res = await fetch(url, { method: "HEAD", redirect: "manual", signal: signal ?? AbortSignal.timeout(20_000) });
  } catch (error) {
    throw unreachable(url, error);
  }
  const tag = (name: string) => res.headers.get(name)?.replace(/^W\//, "").replace(/"/g, "").toLowerCase();
  const linked = tag("x-linked-etag");
  if (linked && /^[0-9a-f]{64}$/.test(linked)) return { sha256: linked };
  const etag = tag("etag");
  if (etag && /^[0-9a-f]{64}$/.test(etag)) return { sha256: etag };
  if (etag && /^[0-9a-f]{40}$/.test(etag)) return { gitSha1: etag };
  return undefined;
}

function unreachable(url: string, error: unknown): DownloadError {
  const e = error as { cause?: { code?: string; message?: string }; message?: string; name?: string };
  const why = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
  return new DownloadError("unreachable", `could not reach ${new URL(url).host} (${why})`);
}

async function hashesOf(file: string, size: number): Promise<Required<Checksum>> {
  const sha1 = createHash("sha1");
  const sha256 = createHash("sha256");
  const git = createHash("sha1").update(`blob ${size}\0`);
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    sha1.update(chunk);
    sha256.update(chunk);
    git.update(chunk);
  }
  return { sha1: sha1.digest("hex"), sha256: sha256.digest("hex"), gitSha1: git.digest("hex") };
}

function mismatch(actual: Required<Checksum>, expected: Checksum): string | undefined {
  for (const kind of ["sha256", "sha1", "gitSha1"] as const) {
    const want = expected[kind]?.toLowerCase();
    if (want && actual[kind] !== want) return `${kind} ${actual[kind]} is not the expected ${want}`;
  }
  return undefined;
}

export async function downloadFile(options: DownloadOptions): Promise<void> {
  const { url, dest } = options;
  const expected = hasChecksum(options.expected) ? options.expected : await hubChecksum(url, options.signal);
  if (!hasChecksum(expected)) {
    throw new DownloadError("no-checksum", `${url} publishes no checksum to verify the download against`);
  }
  await mkdir(path.dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  let have = await stat(part).then(
    (s) => s.size,
    () => 0,
  );

  let res: Response;
  try {
    res = await fetch(url, {
      redirect: "follow",
      headers: have > 0 ? { range: `bytes=${have}-` } : {},
      signal: options.signal ?? AbortSignal.timeout(options.connectTimeoutMs ?? 30_000),
    });
  } catch (error) {
    throw unreachable(url, error);
  }
  if (res.status === 416 && have > 0) {
    // The part is already whole (the cut came after the last byte): verify it below.
  } else if (res.status === 206 || res.status === 200) {
    if (res.status === 200) have = 0; // the server ignored the range: start over
    const length = Number(res.headers.get("content-length"));
    const total = Number.isFinite(length) && length > 0 ? have + length : undefined;
    let received = have;
    const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
    body.on("data", (chunk: Buffer) => {
      received += chunk.length;
      options.onProgress?.(received, total);
    });
    try {
      await pipeline(body, createWriteStream(part, { flags: have > 0 ? "a" : "w" }));
    } catch (error) {
      // Keep what arrived: the next try continues from there.
      throw new DownloadError("interrupted", `the download of ${url} broke off: ${(error as Error).message}`);
    }
    if (total !== undefined && received < total) {
      throw new DownloadError("interrupted", `the download of ${url} ended after ${received} of ${total} bytes`);
    }
  } else {
    throw new DownloadError("http", `${url} answered HTTP ${res.status}`);
  }

  const size = (await stat(part)).size;
  const wrong = mismatch(await hashesOf(part, size), expected);
  if (wrong) {
    await rm(part, { force: true });
    throw new DownloadError("checksum", `${path.basename(dest)}: ${wrong}; nothing was kept`);
  }
  await rename(part, dest);
}
