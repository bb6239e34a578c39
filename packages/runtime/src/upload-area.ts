import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { copyFile, link, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { FileStore as TusFileStore } from "@tus/file-store";
import type { DataStore } from "@tus/utils";
import type { Config } from "./config.ts";
import type { FileStore } from "./file-store.ts";
import type { S3Settings } from "./s3-file-store.ts";

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
    // The S3 area is registered by the S3 file store's module (upload-area-s3.ts), which `files` came from:
    // a one-machine install never loads the AWS SDK.
    if (!s3Area) throw new Error("FILE_STORE=s3 needs the S3 file store (openFileStore) opened first");
    return s3Area({ ...config, S3_BUCKET: config.S3_BUCKET }, files, expiryMs);
  }
  return localUploadArea(path.join(config.dataDir, "uploads"), path.join(config.dataDir, "tmp"), expiryMs);
}

export const randomId = () => randomBytes(16).toString("hex");

type S3Area = (settings: S3Settings & { S3_BUCKET: string }, files: FileStore, expiryMs: number) => UploadArea;
let s3Area: S3Area | undefined;
/** The S3 upload area's maker (upload-area-s3.ts registers it when the S3 file store is loaded). */
export function registerS3UploadArea(make: S3Area): void {
  s3Area = make;
}

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
