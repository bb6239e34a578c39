import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runHousekeeping } from "../../apps/worker/src/jobs/housekeeping.ts";
import { type MediaFixtures, makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { TUS_PATH } from "../helpers/tus.ts";

/**
 * Storage per user (issue 40 §5; docs/records-api.md "Storage per user"): records and unfinished
 * resumable uploads could fill the disk. Now what a user keeps — records, the bin included, and the
 * uploads they started at their announced length — may not pass STORAGE_BYTES_PER_USER: past it an
 * upload is refused with 20001 before anything is kept, parallel uploads cannot pass it together, and
 * room comes back when records are deleted for good or uploads end.
 */
const api = (p: string) => `/voice_yuelu${p}`;
let t: TestApp;
let fx: MediaFixtures;
let wav: Buffer;
/** room for exactly two copies of the fixture */
let cap: number;

beforeAll(async () => {
  fx = await makeMediaFixtures();
  wav = await readFile(fx.wav);
  cap = Math.floor(wav.length * 2.5);
  t = await createTestApp({ STORAGE_BYTES_PER_USER: String(cap) });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await fx?.cleanup();
});

const upload = (who: SignedIn, lang = "en") =>
  t
    .http()
    .post(api("/api/v1/audio/upload"))
    .set("Cookie", who.cookie)
    .set("lang", lang)
    .attach("file", wav, "tone.wav");

const tusHeaders = (who: SignedIn) => ({ "Tus-Resumable": "1.0.0", lang: "en", Cookie: who.cookie });
const startTus = (who: SignedIn, length: number) =>
  t
    .http()
    .post(TUS_PATH)
    .set(tusHeaders(who))
    .set("Upload-Length", String(length))
    .set("Upload-Metadata", `filename ${Buffer.from("tone.wav").toString("base64")}`);

async function storedFiles(who: SignedIn): Promise<number> {
  let n = 0;
  for await (const _file of t.files.list(`media/${who.userId}/`)) n++;
  return n;
}

describe("storage per user", () => {
  it("refuses the upload that does not fit with 20001 saying what is used, in the user's language; nothing kept", async () => {
    const who = await signIn(t);
    expect((await upload(who)).body.status_code).toBe(1);
    expect((await upload(who)).body.status_code).toBe(1);
    const en = await upload(who, "en");
    expect(en.body.status_code).toBe(20001);
    expect(en.body.status_msg).toMatch(/Not enough storage: .* GB of your .* GB are used/);
    const zh = await upload(who, "zh");
    expect(zh.body.status_code).toBe(20001);
    expect(zh.body.status_msg).toMatch(/存储空间不足/);
    expect(await t.db.audioRecord.count({ where: { userId: who.userId } })).toBe(2);
    expect(await storedFiles(who)).toBe(2);
    expect(await t.db.storageHold.count({ where: { userId: who.userId } })).toBe(0);
    // another user has room of their own
    expect((await upload(await signIn(t))).body.status_code).toBe(1);
  });

  it("counts the bin until it is emptied: deleting for good gives the room back", async () => {
    const who = await signIn(t);
    const first = (await upload(who)).body.data.fileId as number;
    expect((await upload(who)).body.status_code).toBe(1);
    const call = (p: string, body: object) => t.http().post(api(p)).set("Cookie", who.cookie).send(body);
    expect((await call("/api/v1/audio/record/delete_batch", { fileIds: String(first) })).body.status_code).toBe(1);
    expect((await upload(who)).body.status_code).toBe(20001); // in the bin, its file is still kept
    expect((await call("/api/v1/audio/record/delete_forever", { fileIds: String(first) })).body.status_code).toBe(1);
    expect((await upload(who)).body.status_code).toBe(1);
  });

  it("parallel uploads cannot pass the cap together: of six at once, two are kept", async () => {
    const who = await signIn(t);
    const answers = await Promise.all(Array.from({ length: 6 }, () => upload(who)));
    const codes = answers.map((a) => a.body.status_code).sort();
    expect(codes).toEqual([1, 1, 20001, 20001, 20001, 20001]);
    expect(await t.db.audioRecord.count({ where: { userId: who.userId } })).toBe(2);
    expect(await storedFiles(who)).toBe(2);
  });

  it("an unfinished resumable upload counts at its announced length from its creation; ending it frees the room", async () => {
    const who = await signIn(t);
    const made = await startTus(who, wav.length * 2);
    expect(made.status).toBe(201);
    // the started upload holds room for two copies: a one-request upload no longer fits, nor a second tus
    expect((await upload(who)).body.status_code).toBe(20001);
    const second = await startTus(who, wav.length);
    expect(second.status).toBe(402);
    expect(JSON.parse(second.text)).toMatchObject({ status_code: 20001 });
    // ended by its owner (termination): the room is back
    const ended = await t
      .http()
      .delete(made.headers.location as string)
      .set(tusHeaders(who));
    expect(ended.status).toBe(204);
    expect((await upload(who)).body.status_code).toBe(1);
    // finished, it counts as its record (once, not twice)
    const another = await startTus(who, wav.length);
    expect(another.status).toBe(201);
    const done = await t
      .http()
      .patch(another.headers.location as string)
      .set(tusHeaders(who))
      .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
      .send(wav);
    expect(JSON.parse(done.text)).toMatchObject({ status_code: 1 });
    expect(await t.db.storageHold.count({ where: { userId: who.userId } })).toBe(0);
    expect(await t.db.audioRecord.count({ where: { userId: who.userId } })).toBe(2);
  });

  it("a recording uploaded while it is made (length deferred) holds what its PATCHes bring, and is refused past the cap", async () => {
    const who = await signIn(t);
    const made = await t
      .http()
      .post(TUS_PATH)
      .set(tusHeaders(who))
      .set("Upload-Defer-Length", "1")
      .set("Upload-Metadata", `filename ${Buffer.from("recording.wav").toString("base64")}`);
    expect(made.status).toBe(201);
    const url = made.headers.location as string;
    const patch = (offset: number, bytes: Buffer, extra: Record<string, string> = {}) =>
      t
        .http()
        .patch(url)
        .set(tusHeaders(who))
        .set({ "Upload-Offset": String(offset), "Content-Type": "application/offset+octet-stream", ...extra })
        .send(bytes);
    // one copy's worth fits; it holds what it has received
    expect((await patch(0, wav)).status).toBe(204);
    expect((await t.db.storageHold.findFirstOrThrow({ where: { userId: who.userId } })).bytes).toBe(BigInt(wav.length));
    // a PATCH that would bring it past the cap is refused before a byte of it is written
    const tooMuch = await patch(wav.length, Buffer.concat([wav, wav]));
    expect(tooMuch.status).toBe(402);
    expect(JSON.parse(tooMuch.text)).toMatchObject({ status_code: 20001 });
    const head = await t.http().head(url).set(tusHeaders(who));
    expect(head.headers["upload-offset"]).toBe(String(wav.length));
    // ended with its length declared, it becomes a record
    const last = await patch(wav.length, Buffer.alloc(0), { "Upload-Length": String(wav.length) });
    expect(JSON.parse(last.text)).toMatchObject({ status_code: 1 });
    expect(await t.db.storageHold.count({ where: { userId: who.userId } })).toBe(0);
  });

  it("an upload left unfinished stops counting at its expiry, and housekeeping removes its hold", async () => {
    const who = await signIn(t);
    expect((await startTus(who, cap)).status).toBe(201);
    expect((await upload(who)).body.status_code).toBe(20001);
    await t.db.storageHold.updateMany({ where: { userId: who.userId }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect((await upload(who)).body.status_code).toBe(1);
    const swept = await runHousekeeping(t.domain);
    expect(swept.expiredStorageHolds).toBeGreaterThanOrEqual(1);
    expect(await t.db.storageHold.count({ where: { userId: who.userId } })).toBe(0);
  });
});
