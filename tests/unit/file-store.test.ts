import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { ConfigError, type FileStore, loadConfig, localFileStore } from "@yuelu/runtime";
import { s3FileStore } from "@yuelu/runtime/s3-file-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startS3, type TestS3 } from "../helpers/s3.ts";

/**
 * One contract, two stores: what the API and the worker rely on holds on local disk and on a real
 * S3-compatible server (s3rver), so a deployment can switch FILE_STORE without a behaviour change.
 */
let s3: TestS3;
let dir: string;
const stores: Record<string, () => FileStore> = {};

beforeAll(async () => {
  s3 = await startS3("contract");
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-store-"));
  const local = localFileStore(path.join(dir, "files"));
  const remote = s3FileStore(
    {
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: "us-east-1",
      S3_BUCKET: s3.bucket,
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: true,
    },
    { tmpDir: path.join(dir, "tmp") },
  );
  stores.local = () => local;
  stores.s3 = () => remote;
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe.each(["local", "s3"])("the %s file store", (kind) => {
  const store = () => stores[kind]!();

  it("stores, sizes, reads whole and by range, lists and deletes", async () => {
    const data = randomBytes(100_000);
    const key = `media/1/${kind}-a.wav`;
    expect(await store().put(key, Readable.from([data.subarray(0, 40_000), data.subarray(40_000)]))).toEqual({
      size: 100_000,
    });
    expect(await store().size(key)).toBe(100_000);
    expect(await bytesOf(await store().read(key))).toEqual(data);
    expect(await bytesOf(await store().read(key, { start: 99_990, end: 99_999 }))).toEqual(data.subarray(99_990));
    // (Safari's first probe is bytes=0-1; s3rver reads an end of 0 as "to the end", real S3 does not)
    expect(await bytesOf(await store().read(key, { start: 0, end: 1 }))).toEqual(data.subarray(0, 2));
    const listed = [];
    for await (const item of store().list(`media/1/${kind}-`)) listed.push(item);
    expect(listed).toEqual([{ key, size: 100_000 }]);
    await store().delete(key);
    expect(await store().size(key)).toBeNull();
    await store().delete(key); // already gone: not an error
  });

  it("answers null and rejects for a file that is not there", async () => {
    expect(await store().size("media/1/none.wav")).toBeNull();
    await expect(store().read("media/1/none.wav")).rejects.toThrow();
    await expect(store().withLocalCopy("media/1/none.wav", async () => "used")).rejects.toThrow();
  });

  it("keeps nothing of a write whose source fails half-way", async () => {
    const key = `media/2/${kind}-broken.mp3`;
    async function* failing() {
      yield randomBytes(64 * 1024);
      throw new Error("the client went away");
    }
    await expect(store().put(key, Readable.from(failing()))).rejects.toThrow();
    expect(await store().size(key)).toBeNull();
    const left = [];
    for await (const item of store().list("media/2/")) left.push(item);
    expect(left).toEqual([]);
  });

  it("streams a multi-part file (20 MiB: three S3 parts) and gives it back intact", { timeout: 60_000 }, async () => {
    const part = randomBytes(1024 * 1024);
    const chunks = Array.from({ length: 20 }, (_, i) => Buffer.concat([Buffer.from([i]), part.subarray(1)]));
    const key = `media/3/${kind}-long.m4a`;
    const { size } = await store().put(key, Readable.from(chunks));
    expect(size).toBe(20 * 1024 * 1024);
    expect(sha(await bytesOf(await store().read(key)))).toBe(sha(Buffer.concat(chunks)));
    await store().delete(key);
  });

  it("moves a local file in (putFile) and hands tools a local copy that goes away afterwards", async () => {
    const data = randomBytes(5000);
    const staged = path.join(dir, `${kind}-staged.bin`);
    await writeFile(staged, data);
    const key = `tts/7/${kind}-work.mp3`;
    expect(await store().putFile(key, staged)).toEqual({ size: 5000 });
    expect(existsSync(staged)).toBe(false);
    let seen = "";
    const read = await store().withLocalCopy(key, async (file) => {
      seen = file;
      return readFile(file);
    });
    expect(read).toEqual(data);
    if (kind === "s3") {
      expect(existsSync(seen)).toBe(false);
      expect(await readdir(path.join(dir, "tmp"))).toEqual([]);
    }
  });

  it("refuses keys that could leave the store", async () => {
    for (const key of ["../etc/passwd", "/abs", "media//x", "media/./x", "a\\b"]) {
      await expect(store().size(key)).rejects.toThrow(/not a file key/);
    }
  });
});

describe("FILE_STORE configuration", () => {
  const s3Env = { FILE_STORE: "s3", S3_BUCKET: "b", COOKIE_SECRET: "c".repeat(32) };

  it("reads the S3 variables by their exact names", () => {
    const config = loadConfig({
      ...s3Env,
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "cn-north-1",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: "true",
    });
    expect(config).toMatchObject({
      FILE_STORE: "s3",
      S3_ENDPOINT: "http://minio:9000",
      S3_REGION: "cn-north-1",
      S3_BUCKET: "b",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_FORCE_PATH_STYLE: true,
    });
    expect(loadConfig({ ...s3Env, S3_FORCE_PATH_STYLE: "false" }).S3_FORCE_PATH_STYLE).toBe(false);
    expect(loadConfig({}).FILE_STORE).toBe("local");
  });

  it("refuses an S3 store without a bucket, a shared session secret, or with half a key pair", () => {
    expect(() => loadConfig({ ...s3Env, S3_BUCKET: "" })).toThrow(ConfigError);
    expect(() => loadConfig({ FILE_STORE: "s3", S3_BUCKET: "b" })).toThrow(/COOKIE_SECRET/);
    expect(() => loadConfig({ ...s3Env, S3_ACCESS_KEY_ID: "id" })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ ...s3Env, FILE_STORE: "nfs" })).toThrow(/FILE_STORE/);
  });
});
