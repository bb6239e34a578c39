import { createReadStream, createWriteStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { assertFileKey, type FileStore, withTempDir } from "./file-store.ts";
// registers the S3 upload area with upload-area.ts: whoever has this store can open that area
import "./upload-area-s3.ts";

/** FILE_STORE=s3's settings, named as the operator sets them. */
export interface S3Settings {
  S3_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
}

/** Multipart part size: 4 parts in flight × 8 MiB bounds what an upload of any size holds in memory. */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;

export function s3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.S3_REGION,
    ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
    forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    ...(settings.S3_ACCESS_KEY_ID && settings.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: settings.S3_ACCESS_KEY_ID, secretAccessKey: settings.S3_SECRET_ACCESS_KEY } }
      : {}),
    // Checksums only where S3 requires them: MinIO, Ceph and s3rver do not all speak the SDK's
    // newer default (CRC32 trailers in aws-chunked bodies).
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}

/**
 * Files in one S3-compatible bucket (AWS, MinIO, Ceph, R2, s3rver), the same keys as on disk. Writes
 * stream as multipart uploads (an object exists only once complete; a failed upload is aborted);
 * reads stream, ranges included; tools get a temporary local copy under `tmpDir`.
 */
export function s3FileStore(settings: S3Settings, options: { tmpDir?: string; client?: S3Client } = {}): FileStore {
  const client = options.client ?? s3Client(settings);
  const Bucket = settings.S3_BUCKET;

  const store: FileStore = {
    kind: "s3",
    async put(key, source) {
      assertFileKey(key);
      let size = 0;
      source.on("data", (chunk: Buffer) => {
        size += chunk.length;
      });
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: source, ContentType: "application/octet-stream" },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // The source may still be flowing: stop it so its producer sees the failure.
        source.destroy();
        throw error;
      }
      return { size };
    },
    async putFile(key, localFile) {
      try {
        await stat(localFile);
        return await store.put(key, createReadStream(localFile));
      } finally {
        await rm(localFile, { force: true });
      }
    },
    async read(key, range) {
      assertFileKey(key);
      const answer = await client.send(
        new GetObjectCommand({ Bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error(`no body for ${key}`);
      return answer.Body;
    },
    async size(key) {
      assertFileKey(key);
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      assertFileKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async withLocalCopy(key, use) {
      return withTempDir(async (dir) => {
        const file = path.join(dir, path.basename(key));
        await pipeline(await store.read(key), createWriteStream(file, { mode: 0o600 }));
        return use(file);
      }, options.tmpDir);
    },
    async *list(prefix = "") {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken }));
        for (const item of page.Contents ?? []) if (item.Key) yield { key: item.Key, size: item.Size ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
    },
  };
  return store;
}

/**
 * Makes sure the bucket is there (created when missing: a fresh MinIO in docker compose needs no
 * set-up step). Fails with a sentence an operator can act on.
 */
export async function ensureBucket(settings: S3Settings, client = s3Client(settings)): Promise<void> {
  const where = `${settings.S3_ENDPOINT ?? `AWS ${settings.S3_REGION}`}, bucket ${settings.S3_BUCKET}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.S3_BUCKET }));
    return;
  } catch (error) {
    if (!isNotFound(error)) throw new Error(`the S3 store is not reachable (${where}): ${describe(error)}`);
  }
  try {
    await client.send(new CreateBucketCommand({ Bucket: settings.S3_BUCKET }));
  } catch (error) {
    throw new Error(`the S3 bucket does not exist and could not be created (${where}): ${describe(error)}`);
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    e?.name === "NotFound" ||
    e?.name === "NoSuchKey" ||
    e?.name === "NoSuchBucket" ||
    e?.$metadata?.httpStatusCode === 404
  );
}

function describe(error: unknown): string {
  const e = error as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode ? ` (HTTP ${e.$metadata.httpStatusCode})` : "";
  return `${e?.name ?? "Error"}: ${e?.message ?? String(error)}${status}`;
}
