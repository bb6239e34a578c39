import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { type FileStore, localFileStore, migrateFiles } from "@yuelu/runtime";
import { s3FileStore } from "@yuelu/runtime/s3-file-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type TestS3 } from "../helpers/s3.ts";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
let s3: TestS3;
let dir: string;
let bucket: FileStore;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  s3 = await startS3("migrated");
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-migrate-"));
  bucket = s3FileStore({ ...s3.env, S3_REGION: "us-east-1", S3_BUCKET: s3.bucket, S3_FORCE_PATH_STYLE: true });
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("npm run admin -- files migrate --to s3", () => {
  it("copies every file of a disk store into the bucket, verified, and skips them on a second run", async () => {
    const files = {
      "media/1/a.mp3": randomBytes(300_000),
      "media/2/b.wav": randomBytes(10),
      "tts/1/work.mp3": randomBytes(9_000_000),
      "avatars/x.png": randomBytes(2_000),
    };
    for (const [key, data] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, "data/files", key)), { recursive: true });
      await writeFile(path.join(dir, "data/files", key), data);
    }
    // a write that never finished is not a file
    await writeFile(path.join(dir, "data/files/media/1/c.mp3.part"), "half");
    const env: NodeJS.ProcessEnv = { ...process.env, ...s3.env, FILE_STORE: "local", DATA_DIR: path.join(dir, "data") };
    delete env.DATABASE_URL; // the files need no database
    const first = await run(
      process.execPath,
      ["--import", "tsx", "scripts/admin.ts", "files", "migrate", "--to", "s3"],
      {
        cwd: root,
        env,
        timeout: 50_000,
      },
    ).catch((e) => {
      throw new Error(`${e.stdout}\n${e.stderr}`);
    });
    expect(first.stdout).toMatch(/4 copied .* 0 already there, 0 failed/);
    // (Buffer.equals: a deep toEqual over 9 million bytes takes vitest minutes)
    for (const [key, data] of Object.entries(files))
      expect((await bytesOf(await bucket.read(key))).equals(data)).toBe(true);
    expect(await bucket.size("media/1/c.mp3.part")).toBeNull();

    // A second run (after an interruption, say) finds every file there and copies nothing.
    const again = await migrateFiles(localFileStore(path.join(dir, "data/files")), bucket);
    expect(again).toMatchObject({ copied: 0, skipped: 4, failed: [] });
  }, 60_000);

  it("reports a copy that reads back different bytes as failed and removes it", async () => {
    const from = localFileStore(path.join(dir, "other"));
    await from.put("media/9/x.wav", Readable.from([randomBytes(1000)]));
    // a target that damages what it stores (a fake, named as such)
    const damaging: FileStore = {
      ...bucket,
      put: (key, source) => bucket.put(key, Readable.from(damage(source))),
    };
    const report = await migrateFiles(from, damaging);
    expect(report).toMatchObject({ copied: 0, failed: [{ key: "media/9/x.wav" }] });
    expect(await bucket.size("media/9/x.wav")).toBeNull();
  });
});

async function* damage(source: Readable) {
  for await (const chunk of source) {
    const copy = Buffer.from(chunk as Buffer);
    copy[0] = (copy[0]! + 1) % 256;
    yield copy;
  }
}
