import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { StatusCode } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, devSession, signIn, type TestApp } from "../helpers/app.ts";
import { seedUser } from "../helpers/factories.ts";
import { startS3, type TestS3 } from "../helpers/s3.ts";

/**
 * FILE_STORE=s3 (issue 19): every file the API keeps goes to the bucket and comes back from it —
 * uploads (streamed, byte ranges for the player), avatars — and every way of deleting removes the
 * objects. When the store is away, an upload is refused with 20002 and leaves neither a row nor a file.
 */
let s3: TestS3;
let t: TestApp;
let fx: MediaFixtures;
const api = (p: string) => `/voice_yuelu${p}`;
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

beforeAll(async () => {
  [s3, fx] = await Promise.all([startS3("api-files"), makeMediaFixtures()]);
  t = await createTestApp(s3.env);
});
afterAll(async () => {
  await t?.close();
  await fx?.cleanup();
  await s3?.close();
});

async function keysOf(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of t.files.list(prefix)) keys.push(item.key);
  return keys;
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

describe("the API on an S3 store", () => {
  it("opens the S3 store the configuration names", () => {
    expect(t.files.kind).toBe("s3");
  });

  it("uploads to the bucket (nothing kept on the API's disk), serves byte ranges, and deletes for good", async () => {
    const user = await signIn(t);
    const original = await readFile(fx.mp3);
    const res = await t
      .http()
      .post(api("/api/v1/audio/upload"))
      .set("Cookie", user.cookie)
      .attach("file", fx.mp3, "会议.mp3");
    expect(res.body).toMatchObject({ status_code: 1, data: { format: "mp3", timeLen: 3 } });
    const { fileId } = res.body.data;
    expect(await keysOf(`media/${user.userId}/`)).toHaveLength(1);
    expect(await readdir(path.join(t.config.dataDir, "files")).catch(() => [])).toEqual([]);
    expect(await readdir(path.join(t.config.dataDir, "tmp")).catch(() => [])).toEqual([]);

    const whole = await t
      .http()
      .get(api(`/api/v3/audio/download?fileId=${fileId}`))
      .set("Cookie", user.cookie)
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(whole.status).toBe(200);
    expect(sha(whole.body as Buffer)).toBe(sha(original));
    const part = await t
      .http()
      .get(api(`/api/v3/audio/download?fileId=${fileId}&inline=1`))
      .set("Cookie", user.cookie)
      .set("Range", "bytes=100-299")
      .buffer(true)
      .parse((r, done) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => done(null, Buffer.concat(chunks)));
      });
    expect(part.status).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 100-299/${original.length}`);
    expect((part.body as Buffer).equals(original.subarray(100, 300))).toBe(true);

    await t
      .http()
      .post(api("/api/v1/audio/record/delete_batch"))
      .set("Cookie", user.cookie)
      .send({ fileIds: `${fileId}` });
    const gone = await t
      .http()
      .post(api("/api/v1/audio/record/delete_forever"))
      .set("Cookie", user.cookie)
      .send({ fileIds: `${fileId}` });
    expect(gone.body.status_code).toBe(1);
    expect(await keysOf(`media/${user.userId}/`)).toEqual([]);
  });

  it("keeps avatars in the bucket and removes the previous one", async () => {
    const who = await devSession(t, (await seedUser(t.db)).phone!);
    const send = (name: string) =>
      t
        .http()
        .post(api("/api/v1/user/upload_photo"))
        .set("Cookie", who.cookie)
        .attach("file", PNG, { filename: name, contentType: "image/png" });
    const first = (await send("me.png")).body.data.userPhoto as string;
    const served = await t.http().get(first).buffer(true);
    expect(served.status).toBe(200);
    expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);
    const second = (await send("again.png")).body.data.userPhoto as string;
    expect((await t.http().get(first)).status).toBe(404);
    expect((await t.http().get(second)).status).toBe(200);
    const avatars = await keysOf("avatars/");
    expect(avatars.filter((k) => first.endsWith(path.basename(k)))).toEqual([]);
  });

  it("with the store away: 20002, no row, nothing staged, and the next upload works once it is back", async () => {
    const user = await signIn(t);
    await s3.stop();
    try {
      const res = await t
        .http()
        .post(api("/api/v1/audio/upload"))
        .set("Cookie", user.cookie)
        .attach("file", fx.wav, "lost.wav");
      expect(res.body.status_code).toBe(StatusCode.FileSaveFailed);
      expect(await t.db.audioRecord.count({ where: { userId: user.userId } })).toBe(0);
      expect(await readdir(path.join(t.config.dataDir, "tmp")).catch(() => [])).toEqual([]);
    } finally {
      await s3.start();
    }
    const ok = await t
      .http()
      .post(api("/api/v1/audio/upload"))
      .set("Cookie", user.cookie)
      .attach("file", fx.wav, "ok.wav");
    expect(ok.body.status_code).toBe(1);
  });
});
