import { AbortMultipartUploadCommand, CopyObjectCommand, ListMultipartUploadsCommand } from "@aws-sdk/client-s3";
import { S3Store } from "@tus/s3-store";
import type { KvStore } from "@tus/utils";
import type { FileStore } from "./file-store.ts";
import { type S3Settings, s3Client } from "./s3-file-store.ts";
import { randomId, registerS3UploadArea, type UploadArea } from "./upload-area.ts";

/**
 * FILE_STORE=s3's upload area (upload-area.ts): a multipart upload of `uploads/<id>` plus
 * `uploads/<id>.info` in the bucket (@tus/s3-store). Its own module, loaded with the S3 file store
 * (s3-file-store.ts imports it), so that an install on local disk never loads the AWS SDK.
 */

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

export function s3UploadArea(settings: S3Settings, files: FileStore, expiryMs: number): UploadArea {
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

registerS3UploadArea(s3UploadArea);
