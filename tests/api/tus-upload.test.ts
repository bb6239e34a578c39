import { readdir, readFile, stat } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { openUploadArea } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { longSpeechMp3, TUS_PATH, tusUpload } from "../helpers/tus.ts";

/**
 * Resumable uploads (issue 31) on the local store, driven by the official tus-js-client against the
 * real server: a 20-minute real-speech recording uploaded in chunks, aborted and resumed from the
 * same offset, continued across a server restart, refused as early as its bytes allow, private to its
 * owner, and cleaned up when left unfinished.
 */
let t: TestApp;
let fx: MediaFixtures;
let speech: string;
let origin: string;
let alice: SignedIn;
let bob: SignedIn;

beforeAll(async () => {
  [fx, t] = await Promise.all([makeMediaFixtures(), createTestApp()]);
  speech = await longSpeechMp3(fx.dir);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  [alice, bob] = [await signIn(t), await signIn(t)];
}, 120_000);
afterAll(async () => {
  await t?.close();
  await fx?.cleanup();
});

/** What the upload area holds (unfinished uploads and their .json). */
const areaFiles = (app = t) => readdir(path.join(app.config.dataDir, "uploads")).catch(() => [] as string[]);
/** Whether the store holds exactly the file's bytes (compared whole: toEqual on megabytes crawls). */
async function sameBytes(app: TestApp, key: string, file: string): Promise<boolean> {
  const stored = await app.files.withLocalCopy(key, (f) => readFile(f));
  return stored.equals(await readFile(file));
}
const tusHeaders = { "Tus-Resumable": "1.0.0", lang: "en" };

async function created(who: SignedIn, filename = "meeting.mp3", length = 1000): Promise<string> {
  const res = await t
    .http()
    .post(TUS_PATH)
    .set({ ...tusHeaders, Cookie: who.cookie })
    .set("Upload-Length", String(length))
    .set("Upload-Metadata", `filename ${Buffer.from(filename).toString("base64")}`);
  expect(res.status).toBe(201);
  return res.headers.location as string;
}

describe("resumable uploads (tus 1.0.0) on the local store", () => {
  it("announces tus 1.0.0 with creation, creation-with-upload, termination and expiration", async () => {
    const res = await t.http().options(TUS_PATH);
    expect(res.status).toBe(204);
    expect(res.headers["tus-version"]).toContain("1.0.0");
    expect(res.headers["tus-extension"]).toEqual(expect.stringContaining("creation-with-upload"));
    expect(res.headers["tus-extension"]).toEqual(expect.stringContaining("termination"));
    expect(res.headers["tus-extension"]).toEqual(expect.stringContaining("expiration"));
    expect(Number(res.headers["tus-max-size"])).toBe(1024 ** 3);
  });

  it("uploads a 20-minute recording in 1 MiB chunks; the last PATCH answers the envelope", async () => {
    const run = tusUpload(origin, speech, { cookie: alice.cookie, filename: "board meeting 董事会.mp3" });
    const answer = await run.done;
    expect(answer.status).toBe(200);
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({
      status_code: 1,
      data: { fileName: "board meeting 董事会.mp3", format: "mp3", fileStatus: 0, timeLen: 1200 },
    });
    const { size } = await stat(speech);
    expect(body.data.fileSize).toBe(size);
    expect(run.patchOffsets.length).toBe(Math.ceil(size / (1024 * 1024)));
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: body.data.fileId } });
    expect(row).toMatchObject({ userId: alice.userId, codec: "mp3", channels: 1 });
    expect(row.storageKey).toMatch(new RegExp(`^media/${alice.userId}/[0-9a-f-]{36}\\.mp3$`));
    expect(await sameBytes(t, row.storageKey, speech)).toBe(true);
    // nothing of the upload is left once it is a record; a HEAD now says it is complete, with the record's id
    expect(await areaFiles()).toEqual([]);
    const head = await t
      .http()
      .head(new URL(answer.url!).pathname)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(head.status).toBe(200);
    expect(head.headers["upload-offset"]).toBe(String(size));
    expect(head.headers["yuelu-file-id"]).toBe(String(body.data.fileId));
  });

  it("aborted mid-way, resumes from the offset the server holds and ends with the same bytes", async () => {
    const { size } = await stat(speech);
    let accepted = 0;
    const first = tusUpload(origin, speech, {
      cookie: alice.cookie,
      chunkSize: 512 * 1024,
      onChunkComplete: (_chunk, bytes) => {
        accepted = bytes;
        if (bytes >= 2 * 1024 * 1024) void first.upload.abort();
      },
    });
    const url = await new Promise<string>((resolve) => {
      const check = setInterval(() => {
        if (accepted >= 2 * 1024 * 1024 && first.upload.url) {
          clearInterval(check);
          resolve(first.upload.url);
        }
      }, 20);
    });
    const head = await t
      .http()
      .head(new URL(url).pathname)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(head.status).toBe(200);
    expect(Number(head.headers["upload-offset"])).toBe(accepted);
    expect(head.headers["upload-length"]).toBe(String(size));

    const resumed = tusUpload(origin, speech, { cookie: alice.cookie, uploadUrl: url, chunkSize: 1024 * 1024 });
    const answer = await resumed.done;
    expect(resumed.patchOffsets[0]).toBe(accepted);
    expect(JSON.parse(answer.body)).toMatchObject({ status_code: 1, data: { fileSize: size, timeLen: 1200 } });
    const row = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: JSON.parse(answer.body).data.fileId } });
    expect(await sameBytes(t, row.storageKey, speech)).toBe(true);
  });

  it("creation-with-upload: a small file in the POST itself answers 201 with the envelope", async () => {
    const answer = await tusUpload(origin, fx.wav, { cookie: bob.cookie, uploadDataDuringCreation: true }).done;
    expect(answer.status).toBe(201);
    expect(JSON.parse(answer.body)).toMatchObject({ status_code: 1, data: { format: "wav", timeLen: 2 } });
  });

  it("needs a session (401) and keeps each upload its owner's (404 to anyone else)", async () => {
    const anonymous = await t.http().post(TUS_PATH).set(tusHeaders).set("Upload-Length", "100");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ status_code: 10001, data: null });
    expect(anonymous.headers["tus-resumable"]).toBe("1.0.0");

    const url = await created(alice);
    const id = url.split("/").pop();
    expect(url).toBe(`${TUS_PATH}/${id}`);
    expect((await t.http().head(url).set(tusHeaders)).status).toBe(401);
    const asBob = { ...tusHeaders, Cookie: bob.cookie };
    const others = [
      t.http().head(url).set(asBob),
      t
        .http()
        .patch(url)
        .set(asBob)
        .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
        .send(Buffer.alloc(10)),
      t.http().delete(url).set(asBob),
    ];
    for (const res of await Promise.all(others)) {
      expect(res.status).toBe(404);
      if (res.text) expect(res.body).toMatchObject({ status_code: 30001 });
    }
    const mine = await t
      .http()
      .head(url)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(mine.status).toBe(200);
    expect(mine.headers["upload-offset"]).toBe("0");
    // tus-js-client sees the same: another user's URL cannot be resumed
    const stolen = await tusUpload(origin, speech, { cookie: bob.cookie, uploadUrl: `${origin}${url}` }).done;
    // (without an endpoint to fall back on it would fail; with one it starts an upload of its own)
    expect(stolen.url).not.toBe(`${origin}${url}`);
    // the owner ends it (termination): the area forgets it
    const ended = await t
      .http()
      .delete(url)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(ended.status).toBe(204);
    expect(await areaFiles()).not.toContain(id);
  });

  it("acts on the id it checked: a query naming another user's upload steers neither HEAD, PATCH nor DELETE", async () => {
    // Bob's upload holds a whole small recording but its last byte; Mallory owns an empty one of her own.
    const mallory = await signIn(t);
    const bytes = await readFile(fx.wav);
    const victimUrl = await created(bob, "bob.wav", bytes.length);
    const victimId = victimUrl.split("/").pop() as string;
    const asBob = { ...tusHeaders, Cookie: bob.cookie };
    const sent = await t
      .http()
      .patch(victimUrl)
      .set(asBob)
      .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
      .send(bytes.subarray(0, bytes.length - 1));
    expect(sent.status).toBe(204);
    const ownUrl = await created(mallory, "mine.wav", bytes.length);
    // @tus/server takes the id from the URL's last segment, query included: `?x=/<victim>` ends in Bob's id
    const steered = `${ownUrl}?x=/${victimId}`;
    const asMallory = { ...tusHeaders, Cookie: mallory.cookie };

    const head = await t.http().head(steered).set(asMallory);
    expect(head.status).toBe(200);
    expect(head.headers["upload-offset"]).toBe("0"); // her own upload's offset, not Bob's
    // PATCH at Bob's offset with his last byte: it must not finish Bob's upload into Mallory's library
    const patch = await t
      .http()
      .patch(steered)
      .set(asMallory)
      .set({ "Upload-Offset": String(bytes.length - 1), "Content-Type": "application/offset+octet-stream" })
      .send(bytes.subarray(bytes.length - 1));
    expect(patch.status).toBe(409); // her upload is at offset 0
    expect(await t.db.audioRecord.count({ where: { userId: mallory.userId } })).toBe(0);
    const del = await t.http().delete(steered).set(asMallory);
    expect(del.status).toBe(204);

    // Bob's upload is untouched, and he finishes it himself
    const still = await t.http().head(victimUrl).set(asBob);
    expect(still.status).toBe(200);
    expect(still.headers["upload-offset"]).toBe(String(bytes.length - 1));
    expect(await areaFiles()).toContain(victimId);
    const last = await t
      .http()
      .patch(victimUrl)
      .set(asBob)
      .set({ "Upload-Offset": String(bytes.length - 1), "Content-Type": "application/offset+octet-stream" })
      .send(bytes.subarray(bytes.length - 1));
    expect(last.status).toBe(200);
    expect(last.body).toMatchObject({ status_code: 1, data: { fileName: "bob.wav" } });
    // and Mallory's own upload was the one her DELETE ended
    expect((await t.http().head(ownUrl).set(asMallory)).status).toBe(404);
  });

  it("refuses as early as the bytes allow, leaving nothing behind", async () => {
    const user = await signIn(t);
    const before = (await areaFiles()).length;
    // the name: at creation, before any byte
    const named = await tusUpload(origin, fx.exe, { cookie: user.cookie, filename: "setup.exe" }).done;
    expect(named.status).toBe(415);
    expect(JSON.parse(named.body)).toMatchObject({ status_code: 20004 });
    expect(JSON.parse(named.body).status_msg).toMatch(/^File upload failed: only wav, mp3, /);
    // the announced length: at creation
    const big = await t
      .http()
      .post(TUS_PATH)
      .set({ ...tusHeaders, Cookie: user.cookie })
      .set("Upload-Length", String(1024 ** 3 + 1))
      .set("Upload-Metadata", `filename ${Buffer.from("big.wav").toString("base64")}`);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({
      status_code: 20004,
      status_msg: "File upload failed: the file is larger than 1 GB",
    });
    // the content: on the first bytes (an executable renamed .mp3)
    const renamed = await tusUpload(origin, fx.exe, { cookie: user.cookie, filename: "song.mp3" }).done;
    expect(renamed.status).toBe(415);
    expect(JSON.parse(renamed.body)).toMatchObject({
      status_code: 20004,
      status_msg: "File upload failed: the file's content is not audio or video",
    });
    // the length in time: when the last byte lands (ffprobe), the 5-hour recording is refused
    const long = await tusUpload(origin, fx.longMp3, { cookie: user.cookie, chunkSize: 8 * 1024 * 1024 }).done;
    expect(long.status).toBe(422);
    expect(JSON.parse(long.body)).toMatchObject({
      status_code: 20004,
      status_msg: "File upload failed: it is longer than 5 hours",
    });
    expect(await areaFiles()).toHaveLength(before);
    expect(await t.db.audioRecord.count({ where: { userId: user.userId } })).toBe(0);
    expect(await readdir(path.join(t.config.dataDir, "files", "media", String(user.userId))).catch(() => [])).toEqual(
      [],
    );
  });

  it("removes unfinished uploads past their expiry (housekeeping), counted against nobody", async () => {
    const url = await created(alice, "half.mp3", 5000);
    const id = url.split("/").pop()!;
    await t
      .http()
      .patch(url)
      .set({ ...tusHeaders, Cookie: alice.cookie })
      .set("Upload-Offset", "0")
      .set("Content-Type", "application/offset+octet-stream")
      .send((await readFile(speech)).subarray(0, 2000));
    expect(await areaFiles()).toEqual(expect.arrayContaining([id, `${id}.json`]));
    // within the day it stays; an area whose expiry has passed (a few ms) removes it
    expect((await runHousekeeping(t.domain, { uploads: openUploadArea(t.config, t.files) })).expiredUploads).toBe(0);
    const expired = openUploadArea({ ...t.config, UPLOAD_EXPIRY_HOURS: 1e-6 }, t.files);
    await new Promise((r) => setTimeout(r, 20));
    expect((await runHousekeeping(t.domain, { uploads: expired })).expiredUploads).toBeGreaterThanOrEqual(1);
    expect(await areaFiles()).not.toContain(id);
    const gone = await t
      .http()
      .head(url)
      .set({ ...tusHeaders, Cookie: alice.cookie });
    expect(gone.status).toBe(404);
  });
});

describe("a server restart in the middle of an upload", () => {
  it("continues on the restarted server (same disk, same database) from where the bytes stopped", async () => {
    const dataDir = `/tmp/yuelu-test-tus-restart-${process.pid}`;
    const first = await createTestApp({ DATA_DIR: dataDir });
    await first.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (first.app.server.address() as AddressInfo).port;
    const address = `http://127.0.0.1:${port}`;
    const user = await signIn(first);
    let second: TestApp | undefined;
    try {
      let restarting: Promise<void> | undefined;
      const run = tusUpload(address, speech, {
        cookie: user.cookie,
        chunkSize: 512 * 1024,
        // the client keeps trying while the server is away
        retryDelays: [200, 500, 1000, 1000, 2000, 2000, 3000, 3000],
        onChunkComplete: (_chunk, accepted) => {
          if (accepted < 2 * 1024 * 1024 || restarting) return;
          restarting = (async () => {
            const closing = first.app.close();
            first.app.server.closeAllConnections();
            await closing;
            second = await createTestApp({ DATA_DIR: dataDir }, { shareDatabaseWith: first });
            await second.app.listen({ port, host: "127.0.0.1" });
          })();
        },
      });
      const answer = await run.done;
      await restarting;
      expect(second).toBeDefined();
      expect(answer.status).toBe(200);
      const body = JSON.parse(answer.body);
      expect(body).toMatchObject({ status_code: 1, data: { timeLen: 1200, fileSize: (await stat(speech)).size } });
      // it went on from the bytes the first server had kept, not from the start
      const resumedAt = run.patchOffsets.findIndex((o, i) => i > 0 && o <= run.patchOffsets[i - 1]!);
      expect(run.patchOffsets.filter((o) => o === 0)).toHaveLength(1);
      expect(resumedAt === -1 || run.patchOffsets[resumedAt]! > 0).toBe(true);
      const row = await second!.db.audioRecord.findUniqueOrThrow({ where: { fileId: body.data.fileId } });
      expect(await sameBytes(second!, row.storageKey, speech)).toBe(true);
    } finally {
      await second?.close();
      await first.close();
    }
  }, 60_000);
});
