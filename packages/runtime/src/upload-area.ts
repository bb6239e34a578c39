import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { copyFile, link, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { AbortMultipartUploadCommand, CopyObjectCommand, ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { FileStore as TusFileStore } from "@tus/file-store";
import { S3Store } from "@tus/s3-store";
import type { DataStore, KvStore } from "@tus/utils";
import type { Config } from "./config.ts";
import type { FileStore } from "./file-store.ts";
import { type S3Settings, s3Client } from "./s3-file-store.ts";

/**
 * Where resumable (tus) uploads grow until their last byte lands: next to the file store, so any API
 * process that shares the store can continue an upload another one began, and a restart loses nothing.
 * - FILE_STORE=local: DATA_DIR/uploads/<id> and <id>.json (@tus/file-store);
 * - FILE_STORE=s3: a multipart upload of `uploads/<id>` plus `uploads/<id>.info` in the bucket
 *   (@tus/s3-store; a part smaller than S3's 5 MiB minimum waits as `uploads/<id>.part`).
 * Nothing about an upload is kept in process memory.
 */
export interface UploadArea {
  /** the tus data store (@tus/server's `datastore`) */
  readonly store: DataStore;
  /** what upload ids start with: the URL carries only the rest ("" on disk, "uploads/" on S3) */
  readonly idPrefix: string;
  /** Milliseconds an unfinished upload lives after its creation. */
  readonly expiryMs: number;
  /** A new upload id (random, with the area's prefix). */
  newId(): string;
  /** Runs `use` with a local file holding the upload's bytes so far (ffprobe needs a path). */
  withLocalFile<T>(id: string, use: (file: string) => Promise<T>): Promise<T>;
  /** Copies a finished upload's bytes to `key` in `files`; the upload stays until `discard`. */
  keep(id: string, files: FileStore, key: string): Promise<void>;
  /** Removes an upload, finished or not, with everything it left; one already gone is no error. */
  discard(id: string): Promise<void>;
  /** Removes the unfinished uploads past their expiry; answers how many. */
  deleteExpired(): Promise<number>;
}

const HOUR_MS = 3_600_000;

/** Opens the upload area of the configured file store (`files` is that store). */
export function openUploadArea(config: Config, files: FileStore): UploadArea {
  const expiryMs = Math.round(config.UPLOAD_EXPIRY_HOURS * HOUR_MS);
  if (config.FILE_STORE === "s3") {
    if (!config.S3_BUCKET) throw new Error("S3_BUCKET is required when FILE_STORE=s3");
    return s3UploadArea({ ...config, S3_BUCKET: config.S3_BUCKET }, files, expiryMs);
  }
  return localUploadArea(path.join(config.dataDir, "uploads"), path.join(config.dataDir, "tmp"), expiryMs);
}

const randomId = () => randomBytes(16).toString("hex");

function localUploadArea(directory: string, tmpDir: string, expiryMs: number): UploadArea {
  // @tus/file-store creates its folder without waiting (and throws out of band on failure): make it first.
  mkdirSync(directory, { recursive: true });
  const store = new TusFileStore({ directory, expirationPeriodInMilliseconds: expiryMs });
  const fileOf = (id: string) => path.join(directory, path.basename(id));
  return {
    store,
    idPrefix: "",
    expiryMs,
    newId: randomId,
    withLocalFile: (id, use) => use(fileOf(id)),
    async keep(id, files, key) {
      // A hard link costs nothing on the same disk; the store then renames it into place.
      await mkdir(tmpDir, { recursive: true });
      const copy = path.join(tmpDir, `upload-${randomUUID()}`);
      await link(fileOf(id), copy).catch(() => copyFile(fileOf(id), copy));
      await files.putFile(key, copy);
    },
    async discard(id) {
      await rm(fileOf(id), { force: true });
      await rm(`${fileOf(id)}.json`, { force: true });
    },
    async deleteExpired() {
      try {
        return await store.deleteExpired();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
        throw error;
      }
    },
  };
}

const S3_PREFIX = "uploads/";

/**
 * Keeps nothing: every API process reads an upload's `.info` afresh, so one that continues an upload
 * another began (or whose length another declared) never works from a stale copy.
 */
const noCache: KvStore<never> = {
  get: async () => undefined,
  set: async () => {},
  delete: async () => {},
};

function s3UploadArea(settings: S3Settings, files: FileStore, expiryMs: number): UploadArea {
  const client = s3Client(settings);
  const Bucket = settings.S3_BUCKET;
  const store = new S3Store({
    partSize: 8 * 1024 * 1024,
    expirationPeriodInMilliseconds: expiryMs,
    // expiry is housekeeping's job (below), not a bucket lifecycle rule: no object tags needed
    useTags: false,
    cache: noCache,
    s3ClientConfig: {
      bucket: Bucket,
      region: settings.S3_REGION,
      ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      ...(settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY } }
        : {}),
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    },
  });
  const leftovers = (id: string) => [id, `${id}.info`, `${id}.part`];
  return {
    store,
    idPrefix: S3_PREFIX,
    expiryMs,
    newId: () => `${S3_PREFIX}${randomId()}`,
    withLocalFile: (id, use) => files.withLocalCopy(id, use),
    async keep(id, _files, key) {
      // a copy inside the bucket: the bytes never travel through this machine again
      await client.send(new CopyObjectCommand({ Bucket, Key: key, CopySource: `${Bucket}/${id}` }));
    },
    async discard(id) {
      // an unfinished upload is a multipart upload to abort; a finished one is plain objects
      await store.remove(id).catch(() => {});
      for (const key of leftovers(id)) await files.delete(key);
    },
    async deleteExpired() {
      // Only this area's multipart uploads (the file store's own are short-lived and not tus's).
      const cutoff = Date.now() - expiryMs;
      let removed = 0;
      let KeyMarker: string | undefined;
      let UploadIdMarker: string | undefined;
      do {
        const page = await client.send(
          new ListMultipartUploadsCommand({ Bucket, Prefix: S3_PREFIX, KeyMarker, UploadIdMarker }),
        );
        for (const upload of page.Uploads ?? []) {
          if (!upload.Key || !upload.UploadId || !upload.Initiated) continue;
          if (upload.Initiated.getTime() > cutoff) continue;
          await client.send(new AbortMultipartUploadCommand({ Bucket, Key: upload.Key, UploadId: upload.UploadId }));
          for (const key of leftovers(upload.Key)) await files.delete(key);
          removed += 1;
        }
        KeyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
        UploadIdMarker = page.IsTruncated ? page.NextUploadIdMarker : undefined;
      } while (KeyMarker);
      return removed;
    },
  };
}
