// s3rver 3.7 stores multipart uploads but does not implement three calls of the S3 API that real
// servers (AWS, MinIO, Ceph, R2) answer and @tus/s3-store relies on: ListParts, AbortMultipartUpload
// and ListMultipartUploads. This middleware answers them from s3rver's own upload folders
// (<directory>/<bucket>/._S3rver_uploads/<uploadId>/{key, 1, 1.md5, 2, …}), so the resumable upload
// tests run against the same server as every other S3 test.
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";

const xml = (body) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const xmlText = (s) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Adds the three calls in front of s3rver's own routes. */
export function completeMultipart(server, directory) {
  server.middleware.unshift(async (ctx, next) => {
    const [bucket, ...rest] = ctx.path.slice(1).split("/");
    const key = rest.map(decodeURIComponent).join("/");
    const uploads = path.join(directory, bucket ?? "", "._S3rver_uploads");
    if (ctx.method === "GET" && !key && "uploads" in ctx.query) return listUploads(ctx, bucket, uploads);
    const uploadId = ctx.query.uploadId;
    if (!key || typeof uploadId !== "string" || !/^[0-9a-f]+$/.test(uploadId)) return next();
    if (ctx.method === "GET") return listParts(ctx, bucket, key, path.join(uploads, uploadId));
    if (ctx.method === "DELETE") return abort(ctx, path.join(uploads, uploadId));
    return next();
  });
}

function noSuchUpload(ctx) {
  ctx.status = 404;
  ctx.type = "application/xml";
  ctx.body = xml("<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>");
}

async function listParts(ctx, bucket, key, folder) {
  let names;
  try {
    names = await readdir(folder);
  } catch {
    return noSuchUpload(ctx);
  }
  const numbers = names.filter((n) => /^\d+$/.test(n)).map(Number);
  numbers.sort((a, b) => a - b);
  const parts = [];
  for (const n of numbers) {
    const [info, md5] = await Promise.all([
      stat(path.join(folder, String(n))),
      readFile(path.join(folder, `${n}.md5`)),
    ]);
    parts.push(
      `<Part><PartNumber>${n}</PartNumber><ETag>"${md5.toString().trim()}"</ETag><Size>${info.size}</Size>` +
        `<LastModified>${info.mtime.toISOString()}</LastModified></Part>`,
    );
  }
  ctx.type = "application/xml";
  ctx.body = xml(
    `<ListPartsResult><Bucket>${xmlText(bucket)}</Bucket><Key>${xmlText(key)}</Key>` +
      `<UploadId>${path.basename(folder)}</UploadId><IsTruncated>false</IsTruncated>${parts.join("")}</ListPartsResult>`,
  );
}

async function abort(ctx, folder) {
  try {
    await stat(folder);
  } catch {
    return noSuchUpload(ctx);
  }
  await rm(folder, { recursive: true, force: true });
  ctx.status = 204;
}

async function listUploads(ctx, bucket, uploads) {
  const prefix = typeof ctx.query.prefix === "string" ? ctx.query.prefix : "";
  const entries = [];
  for (const uploadId of await readdir(uploads).catch(() => [])) {
    const folder = path.join(uploads, uploadId);
    const key = await readFile(path.join(folder, "key"), "utf8").catch(() => null);
    if (key === null || !key.startsWith(prefix)) continue;
    const initiated = (await stat(path.join(folder, "key"))).mtime.toISOString();
    entries.push(
      `<Upload><Key>${xmlText(key)}</Key><UploadId>${uploadId}</UploadId><Initiated>${initiated}</Initiated></Upload>`,
    );
  }
  ctx.type = "application/xml";
  ctx.body = xml(
    `<ListMultipartUploadsResult><Bucket>${xmlText(bucket)}</Bucket><IsTruncated>false</IsTruncated>` +
      `${entries.join("")}</ListMultipartUploadsResult>`,
  );
}
