import { readFile, stat } from "node:fs/promises";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { openUploadArea } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, devSession, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { startS3, type TestS3 } from "../helpers/s3.ts";
import { longSpeechMp3, TUS_PATH, tusUpload } from "../helpers/tus.ts";

/**
 * Resumable uploads on FILE_STORE=s3 (issue 31), two API nodes sharing one bucket and one database:
 * an upload begun on one node continues on the other (its state is in the bucket, not in a process),
 * S3's 5 MiB part minimum is invisible to the client, finished uploads become records whose bytes
 * were copied inside the bucket, and unfinished ones expire.
 */
let s3: TestS3;
let a: TestApp;
let b: TestApp;
let fx: MediaFixtures;
let speech: string;
let originA: string;
let originB: string;
let alice: SignedIn;

beforeAll(async () => {
  [s3, fx] = await Promise.all([startS3("tus-uploads"), makeMediaFixtures()]);
  speech = await longSpeechMp3(fx.dir, 1200, 64);
  a = await createTestApp(s3.env);
  b = await createTestApp(s3.env, { shareDatabaseWith: a });
  await Promise.all([a.app.listen({ port: 0, host: "127.0.0.1" }), b.app.listen({ port: 0, host: "127.0.0.1" })]);
  originA = `http://127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
  originB = `http://127.0.0.1:${(b.app.server.address() as AddressInfo).port}`;
  alice = await signIn(a);
}, 120_000);
afterAll(async () => {
  await b?.close();
  await a?.close();
  await fx?.cleanup();
  await s3?.close();
});

async function keysOf(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of a.files.list(prefix)) keys.push(item.key);
  return keys;
}
const tusHeaders = { "Tus-Resumable": "1.0.0", lang: "en" };

describe("resumable uploads on the S3 store, across API nodes", () => {
  it("begun on one node, continues on another from the same offset; the record's bytes are the file's", async () => {
    const { size } = await stat(speech);
    let accepted = 0;
    const first = tusUpload(originA, speech, {
      cookie: alice.cookie,
      chunkSize: 2 * 1024 * 1024,
      onChunkComplete: (_chunk, bytes) => {
        accepted = bytes;
        if (bytes >= 6 * 1024 * 1024) void first.upload.abort();
      },
    });
    const url = await new Promise<string>((resolve) => {
      const check = setInterval(() => {
        if (accepted >= 6 * 1024 * 1024 && first.upload.url) {
          clearInterval(check);
          resolve(first.upload.url);
        }
      }, 20);
    });
    // the upload lives in the bucket, under uploads/ (a multipart upload and its .info)
    expect((await keysOf("uploads/")).some((k) => k.endsWith(".info"))).toBe(true);
    const path = new URL(url).pathname;
    // node B answers for it: the same offset node A accepted
    const head = await b
      .http()
      .head(path)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(head.status).toBe(200);
    expect(Number(head.headers["upload-offset"])).toBe(accepted);

    const resumed = tusUpload(originB, speech, { cookie: alice.cookie, uploadUrl: `${originB}${path}` });
    const answer = await resumed.done;
    expect(resumed.patchOffsets[0]).toBe(accepted);
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ status_code: 1, data: { fileSize: size, timeLen: 1200, format: "mp3" } });
    const row = await a.db.audioRecord.findUniqueOrThrow({ where: { fileId: body.data.fileId } });
    expect(row.storageKey).toMatch(new RegExp(`^media/${alice.userId}/`));
    const stored = await a.files.withLocalCopy(row.storageKey, (f) => readFile(f));
    expect(stored.equals(await readFile(speech))).toBe(true);
    // nothing of the upload is left in the bucket; node A knows it is done (the record's id)
    expect(await keysOf("uploads/")).toEqual([]);
    const done = await a
      .http()
      .head(path)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(done.headers["yuelu-file-id"]).toBe(String(body.data.fileId));
  });

  it("a client that resumes through another node takes over from its stalled request there, never beside it", async () => {
    const file = await readFile(fx.containers.flac);
    const created = await a
      .http()
      .post(TUS_PATH)
      .set({ ...tusHeaders, Cookie: alice.cookie })
      .set("Upload-Length", String(file.length))
      .set("Upload-Metadata", `filename ${Buffer.from("archive.flac").toString("base64")}`);
    const url = created.headers.location as string;

    // node A: a PATCH whose connection stalls half-way (a phone that lost its network), holding the upload's lock
    const stalled = request(`${originA}${url}`, {
      method: "PATCH",
      headers: {
        ...tusHeaders,
        Cookie: alice.cookie,
        "Upload-Offset": "0",
        "Content-Type": "application/offset+octet-stream",
        "Content-Length": String(file.length),
      },
    });
    const stalledEnded = new Promise<string>((resolve) => {
      stalled.on("response", (res) => resolve(`answered ${res.statusCode}`));
      stalled.on("error", () => resolve("closed"));
    });
    stalled.write(file.subarray(0, Math.floor(file.length / 3)));
    await new Promise((r) => setTimeout(r, 500));

    // the client gives up on it and resumes through node B: HEAD for the offset, PATCH the rest
    const started = Date.now();
    let offset = 0;
    for (let round = 0; round < 5 && offset < file.length; round += 1) {
      const head = await b
        .http()
        .head(url)
        .set({ ...tusHeaders, Cookie: alice.cookie });
      offset = Number(head.headers["upload-offset"]);
      const patch = await b
        .http()
        .patch(url)
        .set({ ...tusHeaders, Cookie: alice.cookie })
        .set({ "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream" })
        .send(file.subarray(offset));
      if (patch.status === 200) {
        offset = file.length;
        const { data } = JSON.parse(patch.text);
        const record = await a.db.audioRecord.findUniqueOrThrow({ where: { fileId: data.fileId } });
        const stored = await a.files.withLocalCopy(record.storageKey, (f) => readFile(f));
        expect(stored.equals(file)).toBe(true);
      } else {
        // the stalled request's bytes landed meanwhile: the offset moved, ask again
        expect(patch.status).toBe(409);
      }
    }
    expect(offset).toBe(file.length);
    // node A's request was ended when node B asked for the upload (not left to time out after 30 s)
    expect(await Promise.race([stalledEnded, new Promise((r) => setTimeout(() => r("still hanging"), 2000))])).not.toBe(
      "still hanging",
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    stalled.destroy();
  });

  it("keeps an upload its owner's on every node, and refuses a renamed executable before storing it", async () => {
    const bob = await devSession(b, (await signIn(b)).phone);
    const created = await a
      .http()
      .post(TUS_PATH)
      .set({ ...tusHeaders, Cookie: alice.cookie })
      .set("Upload-Length", "100000")
      .set("Upload-Metadata", `filename ${Buffer.from("notes.m4a").toString("base64")}`);
    expect(created.status).toBe(201);
    const url = created.headers.location as string;
    for (const node of [a, b]) {
      const res = await node
        .http()
        .head(url)
        .set({ ...tusHeaders, Cookie: bob.cookie });
      expect(res.status).toBe(404);
    }
    const ended = await b
      .http()
      .delete(url)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(ended.status).toBe(204);

    const renamed = await tusUpload(originB, fx.exe, { cookie: alice.cookie, filename: "song.mp3" }).done;
    expect(renamed.status).toBe(415);
    expect(JSON.parse(renamed.body)).toMatchObject({ status_code: 20004 });
    expect(await keysOf("uploads/")).toEqual([]);
  });

  it("housekeeping aborts unfinished uploads past their expiry and removes what they left", async () => {
    const created = await a
      .http()
      .post(TUS_PATH)
      .set({ ...tusHeaders, Cookie: alice.cookie })
      .set("Upload-Length", "200000")
      .set("Upload-Metadata", `filename ${Buffer.from("half.mp3").toString("base64")}`);
    const url = created.headers.location as string;
    const sent = await b
      .http()
      .patch(url)
      .set({ ...tusHeaders, Cookie: alice.cookie })
      .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
      .send((await readFile(speech)).subarray(0, 100_000));
    expect(sent.status).toBe(204);
    expect(sent.headers["upload-offset"]).toBe("100000");
    expect((await keysOf("uploads/")).length).toBeGreaterThan(0);

    expect((await runHousekeeping(a.domain, { uploads: openUploadArea(a.config, a.files) })).expiredUploads).toBe(0);
    await new Promise((r) => setTimeout(r, 1100)); // s3rver dates uploads to the second
    const expired = openUploadArea({ ...a.config, UPLOAD_EXPIRY_HOURS: 1e-4 }, a.files);
    expect((await runHousekeeping(a.domain, { uploads: expired })).expiredUploads).toBe(1);
    expect(await keysOf("uploads/")).toEqual([]);
    const gone = await a
      .http()
      .head(url)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(gone.status).toBe(404);
  });
});
