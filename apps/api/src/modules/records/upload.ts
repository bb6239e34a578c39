import { randomUUID } from "node:crypto";
import path from "node:path";
import { type Readable, Transform, type TransformCallback } from "node:stream";
import type { MultipartFile } from "@fastify/multipart";
import {
  type Lang,
  MAX_UPLOAD_BYTES,
  StatusCode,
  statusMessage,
  UPLOAD_REFUSAL_WORDS,
  type UploadResult,
  ZUploadQuery,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import {
  AppError,
  acceptUpload,
  assertOwnFolder,
  type DomainContext,
  earlierUpload,
  holdStorage,
  releaseStorage,
  StorageFull,
  type StorageHoldInput,
  storageUsed,
  UPLOAD_MAX_SECONDS,
  uploadExtension,
} from "@yuelu/domain";
import { type FileStore, localFileStore, withTempDir } from "@yuelu/runtime";
import type { FastifyBaseLogger, FastifyRequest } from "fastify";
import { formFileName } from "./names.ts";
import {
  assertCanProbe,
  type MediaFacts,
  type MediaTools,
  ProbeRefused,
  probeMedia,
  SNIFF_BYTES,
  type Sniffed,
  sniff,
} from "./probe.ts";

/** Why an upload was refused; each answers 20004 with its own explanation, but storage_full: 20001. */
export type UploadRefusal =
  | "storage_full"
  | "extension"
  | "content"
  | "unreadable"
  | "no_audio"
  | "too_long"
  | "length_mismatch"
  | "too_large"
  | "empty"
  | "interrupted";

const REASONS: Record<Exclude<UploadRefusal, "storage_full">, Record<Lang, string>> = UPLOAD_REFUSAL_WORDS;

/**
 * 20004 with a reason; the upload route words it as "File upload failed: <reason>". A user whose storage
 * is full gets 20001 (spec: storage quota not enough) saying what they use of what they may.
 */
export class UploadRefused extends AppError {
  constructor(
    readonly refusal: UploadRefusal,
    readonly storage?: { used: bigint; limit: bigint },
  ) {
    super(
      refusal === "storage_full" ? StatusCode.StorageQuotaExceeded : StatusCode.FileUploadFailed,
      { reason: refusal },
      refusal === "too_large" ? 413 : 200,
    );
  }

  /** "File upload failed: <reason>" in the request's language (or what fills the user's storage). */
  explain(lang: Lang): string {
    if (this.refusal === "storage_full") return storageFullMessage(lang, this.storage);
    const sep = lang === "zh" ? "：" : ": ";
    return `${statusMessage(StatusCode.FileUploadFailed, lang).replace(/[.。]$/, "")}${sep}${REASONS[this.refusal][lang]}`;
  }
}

function storageFullMessage(lang: Lang, storage: { used: bigint; limit: bigint } | undefined): string {
  const used = storage ? gigabytes(storage.used) : "";
  const limit = storage ? gigabytes(storage.limit) : "";
  return lang === "zh"
    ? `存储空间不足：已用 ${used} GB，上限 ${limit} GB。请删除不需要的录音并清空回收站后再上传`
    : `Not enough storage: ${used} GB of your ${limit} GB are used. Delete recordings you no longer need and empty the bin, then upload again.`;
}

const gigabytes = (bytes: bigint) => (Number(bytes) / 1024 ** 3).toFixed(1);

/** Multipart framing on top of the file itself: a body announced larger than this is refused unread. */
const MULTIPART_OVERHEAD = 1024 * 1024;

/** True when the request announces a body that cannot hold an acceptable file (refuse before reading it). */
export function announcesOversizedBody(request: FastifyRequest): boolean {
  const length = Number(request.headers["content-length"]);
  return Number.isFinite(length) && length > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD;
}

export interface UploadDeps {
  db: Db;
  /** the storage rule's context (STORAGE_BYTES_PER_USER: domain/records/storage.ts) */
  domain: StorageContext;
  files: FileStore;
  log: FastifyBaseLogger;
  /** the request's language (a missing-tool refusal is worded in it) */
  lang: Lang;
  /** the operator's FFPROBE_PATH and FFMPEG_PATH (unset: on PATH, else the npm-packaged ones) */
  tools: MediaTools;
  /** where uploads are staged while they are checked (DATA_DIR/tmp: the same disk as a local store) */
  tmpDir?: string | undefined;
  /** the largest file accepted; MAX_UPLOAD_BYTES (spec §5: 1 GiB) unless a test makes it smaller */
  maxBytes?: number;
}

/**
 * POST /api/v1/audio/upload: streams the request's file to the FileStore, checks it (extension,
 * content signature, size, ffprobe: readable media with an audio track, ≤ 5 h), then creates the
 * record. Anything refused or interrupted removes the stored file before answering, and a record is
 * only created for an accepted file, so a failure leaves neither behind.
 */
export async function receiveUpload(
  deps: UploadDeps,
  userId: number,
  request: FastifyRequest,
  query: UploadOptions,
): Promise<UploadResult> {
  // A server that cannot probe media refuses before storing a byte (nothing half-written).
  assertCanProbe(deps.lang, deps.tools);
  // (a retry with an uploadId may be answered its earlier record: it is checked once its bytes are known)
  if (!query.uploadId) {
    await assertRoomFor(deps.domain, userId, Number(request.headers["content-length"]) - MULTIPART_OVERHEAD);
  }
  const part = await request.file({ limits: { files: 1, fileSize: deps.maxBytes ?? MAX_UPLOAD_BYTES } });
  if (!part) throw AppError.invalid("file", "no file part in the multipart body");
  try {
    const options = mergeFields(query, part);
    const filename = formFileName(part.filename);
    const ext = uploadExtension(filename);
    if (!ext) throw new UploadRefused("extension");
    if (options.menuId !== null) await assertOwnFolder(deps.db, userId, options.menuId);
    if (options.uploadId) {
      const earlier = await earlierUpload(deps.db, userId, options.uploadId);
      if (earlier) return uploadResult(earlier);
    }
    return await storeAndRecord(deps, userId, part, ext, options);
  } finally {
    // Whatever happened, read the rest of the file part so the answer reaches the client.
    await drain(part.file);
  }
}

/** The upload's options: the query's, or the fields sent before the file. */
export interface UploadOptions {
  menuId: number | null;
  uploadId?: string | undefined;
  liveSessionId?: string | undefined;
}

const FIELDS = ["menuId", "uploadId", "liveSessionId"] as const;

/** Fields sent before the file override the query's (the SPA sends both, with the same values). */
function mergeFields(query: UploadOptions, part: MultipartFile): UploadOptions {
  const raw: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(part.fields)) {
    const first = Array.isArray(field) ? field[0] : field;
    if (first && first.type === "field" && (FIELDS as readonly string[]).includes(name)) raw[name] = first.value;
  }
  if (Object.keys(raw).length === 0) return query;
  const parsed = ZUploadQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw AppError.invalid(String(issue?.path[0] ?? "body"), issue?.message);
  }
  return {
    menuId: raw.menuId !== undefined ? parsed.data.menuId : query.menuId,
    uploadId: parsed.data.uploadId ?? query.uploadId,
    liveSessionId: parsed.data.liveSessionId ?? query.liveSessionId,
  };
}

async function storeAndRecord(
  deps: UploadDeps,
  userId: number,
  part: MultipartFile,
  ext: string,
  options: UploadOptions,
): Promise<UploadResult> {
  const key = `media/${userId}/${randomUUID()}.${ext}`;
  let stored = false;
  let kept = false;
  try {
    // The file is staged on this machine's disk, checked there (ffprobe needs a file), and only an
    // accepted one goes to the store: to S3 that is one streamed upload, on disk one rename.
    const { facts, size } = await withTempDir(async (dir) => {
      const staged = await stage(deps, part, dir, ext);
      const facts = await probe(staged.file, deps.lang, deps.tools);
      // its bytes are held against the user's storage while it is copied to the store, then counted as a record
      await holdUpload(deps.domain, { id: key, userId, bytes: staged.size, expiresAt: inAnHour(deps.domain) });
      try {
        await deps.files.putFile(key, staged.file);
        stored = true;
      } catch (error) {
        // The store could not take the file (S3 away, disk full…): nothing was recorded or charged.
        deps.log.error({ err: error, key }, "could not store an upload");
        throw new AppError(StatusCode.FileSaveFailed);
      }
      return { facts, size: staged.size };
    }, deps.tmpDir);

    const accepted = await acceptUpload(deps.domain, {
      userId,
      menuId: options.menuId,
      uploadId: options.uploadId ?? null,
      fileName: formFileName(part.filename),
      format: ext,
      fileSize: BigInt(size),
      duration: facts.duration,
      sampleRate: facts.sampleRate,
      channels: facts.channels,
      codec: facts.codec,
      storageKey: key,
      liveSessionId: options.liveSessionId,
      holdId: key,
    });
    kept = accepted.kept;
    return uploadResult(accepted.record);
  } finally {
    // refused before its record: the hold goes with it
    if (!kept) {
      await releaseStorage(deps.db, key).catch((err) =>
        deps.log.error({ err, key }, "could not release a storage hold"),
      );
    }
    if (stored && !kept) {
      await deps.files.delete(key).catch((err) => deps.log.error({ err, key }, "could not remove a refused upload"));
    }
  }
}

/**
 * Streams the request's file through the signature gate into `dir`. Refusals: too large, empty,
 * interrupted, not media; a local disk that cannot take it answers 20005.
 */
export async function stage(
  deps: Pick<UploadDeps, "log">,
  part: MultipartFile,
  dir: string,
  ext: string,
): Promise<{ file: string; size: number }> {
  const gate = new SignatureGate();
  // The disk may attach to the stream late (after creating folders): keep its failure meanwhile.
  let failure: Error | undefined;
  gate.on("error", (error) => {
    failure ??= error;
  });
  const source = forward(part.file, gate);
  const name = `upload.${ext}`;
  let size = 0;
  try {
    ({ size } = await localFileStore(dir).put(name, gate));
  } catch (error) {
    failure ??= error as Error;
  }
  if (failure) {
    if (failure instanceof AppError) throw failure;
    if (part.file.truncated) throw new UploadRefused("too_large");
    if (source.failed) throw new UploadRefused("interrupted");
    // The client was fine: this machine's disk could not take the file (full, permissions…).
    deps.log.error({ err: failure }, "could not stage an upload");
    throw new AppError(StatusCode.FileSaveFailed);
  }
  if (part.file.truncated) throw new UploadRefused("too_large");
  if (size === 0) throw new UploadRefused("empty");
  return { file: path.join(dir, name), size };
}

/**
 * What an accepted file is and how long it decodes (records/probe.ts): every path that takes media
 * (records, tus, /v1, voice samples and songs) measures it here, so the length charged is the length
 * heard. Refused (20004 with the reason) past `maxSeconds` — the 5-hour upload limit unless the caller's
 * own is shorter — or when its header and its audio disagree.
 */
export async function probe(
  localPath: string,
  lang: Lang,
  tools: MediaTools,
  maxSeconds = UPLOAD_MAX_SECONDS,
): Promise<MediaFacts> {
  try {
    return await probeMedia(localPath, { lang, tools, maxSeconds });
  } catch (error) {
    if (error instanceof ProbeRefused) throw new UploadRefused(error.reason);
    throw error;
  }
}

/** What the storage rule reads: the database, the clock and STORAGE_BYTES_PER_USER. */
export type StorageContext = Pick<DomainContext, "db" | "clock" | "config" | "events">;

const inAnHour = (ctx: StorageContext) => new Date(ctx.clock.now().getTime() + 3600_000);

/**
 * Holds an upload's bytes against the user's storage (domain/records/storage.ts), refusing with 20001
 * (storage_full, saying what is used of what) when they do not fit.
 */
export async function holdUpload(ctx: StorageContext, hold: StorageHoldInput): Promise<void> {
  try {
    await holdStorage(ctx, hold);
  } catch (error) {
    if (error instanceof StorageFull) throw new UploadRefused("storage_full", error);
    throw error;
  }
}

/**
 * Before reading a body: refuses at once when what it announces cannot fit beside what the user keeps
 * (a user at their cap learns it before sending a gigabyte). Only a courtesy: the bytes that arrive
 * are held, and checked, once they are known.
 */
async function assertRoomFor(ctx: StorageContext, userId: number, announced: number): Promise<void> {
  const limit = BigInt(ctx.config.STORAGE_BYTES_PER_USER);
  if (limit === 0n || !Number.isFinite(announced) || announced <= 0) return;
  const used = await storageUsed(ctx.db, userId, ctx.clock.now());
  if (used + BigInt(announced) > limit) throw new UploadRefused("storage_full", { used, limit });
}

export function uploadResult(r: {
  fileId: number;
  fileName: string;
  timeLen: number;
  fileStatus: number;
  fileSize: bigint;
  format: string;
}): UploadResult {
  return {
    fileId: r.fileId,
    fileName: r.fileName,
    timeLen: r.timeLen,
    fileStatus: r.fileStatus,
    fileSize: Number(r.fileSize),
    format: r.format,
  };
}

/**
 * Passes the file through unchanged while holding back its first SNIFF_BYTES until their signature
 * is checked: a file whose content is recognised as something other than audio/video (an
 * executable, an archive, a document…) is refused there, before the rest is written.
 */
export class SignatureGate extends Transform {
  private head: Buffer[] = [];
  private headBytes = 0;
  private checked = false;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    if (this.checked) return callback(null, chunk);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes < SNIFF_BYTES) return callback();
    this.check(callback);
  }

  override _flush(callback: TransformCallback) {
    if (this.checked) return callback();
    this.check(callback);
  }

  private check(callback: TransformCallback) {
    this.checked = true;
    const head = Buffer.concat(this.head);
    this.head = [];
    sniff(head.subarray(0, SNIFF_BYTES)).then(
      (sniffed: Sniffed) => {
        if (sniffed.kind === "other") return callback(new UploadRefused("content"));
        callback(null, head);
      },
      (error: Error) => callback(error),
    );
  }
}

/**
 * Pipes the multipart file into `target` without tying their lifetimes together: a refusal
 * destroys `target` only, and the file part stays readable so the rest of it can be drained. The
 * part's own failures (client gone, size limit) end `target` with an error.
 */
function forward(file: Readable, target: Transform): { failed: boolean } {
  const state = { failed: false };
  file.on("error", (error) => {
    state.failed = true;
    target.destroy(error);
  });
  file.on("limit", () => target.destroy(new UploadRefused("too_large")));
  file.on("close", () => {
    if (file.readableEnded) return;
    state.failed = true;
    target.destroy(new UploadRefused("interrupted"));
  });
  file.pipe(target);
  return state;
}

/** Reads what is left of a stream and throws it away; settles when it ends, closes or fails. */
export function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    stream.once("end", done);
    stream.once("close", done);
    stream.once("error", done);
    stream.unpipe();
    stream.resume();
  });
}
