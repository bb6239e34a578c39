import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/**
 * Downloads one file: resumable (an interrupted download continues from its `.part` with an HTTP
 * Range request, at once and again on the next try), verified (SHA-1, SHA-256 or the git blob SHA-1
 * a hub publishes for small files — always of the whole file), and atomic (the file appears under its
 * name only once complete and verified). Nothing is trusted unchecked: without a checksum to compare
 * with, the download is refused.
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
  /** stops everything (the worker stopping) */
  signal?: AbortSignal;
  /** how long to wait for the server to answer at all (a blocked host often never answers) */
  connectTimeoutMs?: number;
  /** how long the body may stall before the connection is taken for dead (then resumed) */
  idleTimeoutMs?: number;
  /** how many times a broken-off download continues at once (Range) before this call gives up */
  resumes?: number;
}

const CONNECT_TIMEOUT_MS = 20_000;
const IDLE_TIMEOUT_MS = 60_000;
const RESUMES = 3;

const hasChecksum = (c: Checksum | undefined): c is Checksum => Boolean(c && (c.sha1 || c.sha256 || c.gitSha1));

/** The caller's signal and a watchdog of our own: either aborts the request. */
function watched(signal: AbortSignal | undefined): { signal: AbortSignal; watchdog: AbortController } {
  const watchdog = new AbortController();
  return { watchdog, signal: signal ? AbortSignal.any([signal, watchdog.signal]) : watchdog.signal };
}

/**
 * The checksum a Hugging Face–style hub publishes for a file: the SHA-256 of a file kept in LFS
 * (`X-Linked-Etag`, or an ETag of 64 hex digits), or the git blob SHA-1 of a small one (an ETag of
 * 40 hex digits). Undefined when the server says neither (a plain web server).
 */
export async function hubChecksum(
  url: string,
  signal?: AbortSignal,
  timeoutMs = CONNECT_TIMEOUT_MS,
): Promise<Checksum | undefined> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, {
      method: "HEAD",
      redirect: "manual",
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
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

const sizeOf = (file: string) =>
  stat(file).then(
    (s) => s.size,
    () => 0,
  );

/** Where a 206 answer starts, and the file's whole size, from `Content-Range: bytes 100-299/300`. */
function rangeOf(res: Response): { start: number; total?: number } | undefined {
  const match = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(res.headers.get("content-range") ?? "");
  if (!match) return undefined;
  return { start: Number(match[1]), total: match[2] === "*" ? undefined : Number(match[2]) };
}

/** What the requests of one download did: whether one of them wrote the file from its first byte. */
interface Requests {
  startedOver: boolean;
}

/**
 * How a server answered a request from byte `have` on: the body to append from `from` (206) or to
 * write from the start (200: the server ignored the range), or "whole" (416: the part already holds
 * every byte, the caller verifies it). Anything else is an "http" failure.
 */
async function answerOf(res: Response, url: string, have: number): Promise<"whole" | { from: number; total?: number }> {
  if (res.status === 416 && have > 0) {
    await res.body?.cancel();
    return "whole";
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new DownloadError("http", `${url} answered HTTP ${res.status}`);
  }
  const range = res.status === 206 ? rangeOf(res) : undefined;
  if (range && range.start !== have) {
    await res.body?.cancel();
    throw new DownloadError("http", `${url} answered a range from byte ${range.start}, not ${have}`);
  }
  const from = res.status === 206 ? have : 0;
  const length = Number(res.headers.get("content-length"));
  return { from, total: range?.total ?? (Number.isFinite(length) && length > 0 ? from + length : undefined) };
}

/**
 * One GET into the `.part` file: from its end on (a Range request) when it holds bytes already, from
 * the start when it is empty or the server ignores the range. No answer within `connectTimeoutMs`
 * is "unreachable"; a body that stalls for `idleTimeoutMs` counts as broken off, like a cut
 * connection — what arrived is kept for the next request.
 */
async function fetchIntoPart(options: DownloadOptions, part: string, requests: Requests): Promise<void> {
  const { url } = options;
  const have = await sizeOf(part);
  const { signal, watchdog } = watched(options.signal);
  let timer: NodeJS.Timeout | undefined;
  const deadline = (ms: number, why: string) => {
    clearTimeout(timer);
    timer = setTimeout(() => watchdog.abort(new Error(`${why} for ${ms / 1000} s`)), ms);
  };
  deadline(options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, "no answer");
  try {
    let res: Response;
    try {
      res = await fetch(url, { redirect: "follow", headers: have > 0 ? { range: `bytes=${have}-` } : {}, signal });
    } catch (error) {
      throw unreachable(url, error);
    }
    const answer = await answerOf(res, url, have);
    if (answer === "whole") return;
    if (answer.from === 0) requests.startedOver = true;
    const idleMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    deadline(idleMs, "no data");
    let received = answer.from;
    const body = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
    body.on("data", (chunk: Buffer) => {
      deadline(idleMs, "no data");
      received += chunk.length;
      options.onProgress?.(received, answer.total);
    });
    try {
      await pipeline(body, createWriteStream(part, { flags: answer.from > 0 ? "a" : "w" }));
    } catch (error) {
      const why = signal.reason instanceof Error ? signal.reason.message : (error as Error).message;
      throw new DownloadError("interrupted", `the download of ${url} broke off: ${why}`);
    }
    if (answer.total !== undefined && received < answer.total) {
      throw new DownloadError("interrupted", `the download of ${url} ended after ${received} of ${answer.total} bytes`);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** fetchIntoPart, continued at once (Range) up to `resumes` times when the connection breaks off. */
async function fetchWithResumes(options: DownloadOptions, part: string): Promise<Requests> {
  const requests: Requests = { startedOver: false };
  for (let attempt = 0; ; attempt++) {
    try {
      await fetchIntoPart(options, part, requests);
      return requests;
    } catch (error) {
      const brokeOff = error instanceof DownloadError && error.kind === "interrupted";
      if (!brokeOff || options.signal?.aborted || attempt >= (options.resumes ?? RESUMES)) throw error;
    }
  }
}

const checkPart = async (part: string, expected: Checksum) =>
  mismatch(await hashesOf(part, await sizeOf(part)), expected);

export async function downloadFile(options: DownloadOptions): Promise<void> {
  const { url, dest } = options;
  const expected = hasChecksum(options.expected)
    ? options.expected
    : await hubChecksum(url, options.signal, options.connectTimeoutMs);
  if (!hasChecksum(expected)) {
    throw new DownloadError("no-checksum", `${url} publishes no checksum to verify the download against`);
  }
  await mkdir(path.dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  const keptBytes = (await sizeOf(part)) > 0;
  const { startedOver } = await fetchWithResumes(options, part);
  let wrong = await checkPart(part, expected);
  if (wrong && keptBytes && !startedOver) {
    // the bytes kept from an earlier try (perhaps another source's) may be the wrong ones: start over once
    await rm(part, { force: true });
    await fetchWithResumes(options, part);
    wrong = await checkPart(part, expected);
  }
  if (wrong) {
    await rm(part, { force: true });
    throw new DownloadError("checksum", `${path.basename(dest)}: ${wrong}; nothing was kept`);
  }
  await rename(part, dest);
}
