import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { FileStatus } from "@yuelu/contracts";
import {
  admitLiveSession,
  businessDay,
  chargeLiveBlock,
  claimLiveCredit,
  endLiveSession,
  failTask,
  requestTranscriptions,
} from "@yuelu/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeMediaFixtures } from "../fixtures/media.ts";
import { createTestApp, signIn, type TestApp } from "../helpers/app.ts";
import { seedCards, seedRecord, seedUser } from "../helpers/factories.ts";
import { TUS_PATH } from "../helpers/tus.ts";

/**
 * Live captions are paid once per recording (docs/live.md "Metering"): a live session's charge is
 * claimed by the record made with captions on, and its transcription is charged only what the
 * live session did not already pay. The replay: a hostile client charged N s live, then the same
 * session claimed by a second record, then a failed transcription.
 */

let t: TestApp;
const PARAM = { source: 0, answerVersion: 3, language: "en", speakerCount: 0 } as const;
const queued: number[] = [];
const enqueue = async (taskId: number) => {
  queued.push(taskId);
};

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

async function userWithCard(seconds: number) {
  const user = await seedUser(t.db);
  const [card] = await seedCards(t.db, user.id, [{ seconds }]);
  return { userId: user.id, cardId: card!.id };
}

/** A live session of `userId` charged `blocks` blocks, then ended having decoded `decoded` seconds. */
async function liveSession(userId: number, blocks: number, decoded?: number) {
  const id = `${randomUUID()}.${randomUUID()}`;
  const admitted = await admitLiveSession(t.domain, { id, userId, workerId: "w", language: "en", maxPerUser: 2 });
  expect(admitted).toEqual({ admitted: true, replaced: [] });
  for (let i = 0; i < blocks; i++) {
    expect(await chargeLiveBlock(t.domain, { sessionId: id, userId })).toEqual({ granted: 15 });
  }
  if (decoded !== undefined) await endLiveSession(t.domain, { id, reason: "done", decodedSeconds: decoded });
  return id;
}

async function balances(userId: number, cardId: number) {
  const card = await t.db.timeCard.findUniqueOrThrow({ where: { id: cardId } });
  const day = await t.db.quotaDay.findUnique({
    where: { userId_day: { userId, day: businessDay(new Date(), t.config.BUSINESS_TZ) } },
  });
  return { card: card.remaining, today: day?.secondsUsed ?? 0 };
}

const record = (userId: number, timeLen: number) =>
  seedRecord(t.db, { userId, timeLen, fileStatus: FileStatus.Waiting }).then((r) => r.fileId);

async function transcribe(userId: number, fileId: number) {
  const [outcome] = await requestTranscriptions(t.domain, userId, [fileId], PARAM, enqueue);
  expect(outcome!.code).toBe(1);
  return t.db.transcriptionTask.findUniqueOrThrow({ where: { id: outcome!.taskId! } });
}

describe("a live session's charge, credited to its recording", () => {
  it("settles to the audio decoded; the record claiming it pays only the rest; a second claim gets nothing", async () => {
    const { userId, cardId } = await userWithCard(3600);
    // two blocks paid ahead (30 s), 20 s decoded: settled to 20 s
    const sessionId = await liveSession(userId, 2, 20);
    expect(await balances(userId, cardId)).toEqual({ card: 3580, today: 20 });
    expect((await t.db.liveSession.findUniqueOrThrow({ where: { id: sessionId } })).secondsCharged).toBe(20);

    const first = await record(userId, 50);
    expect(await claimLiveCredit(t.domain, { userId, fileId: first, liveSessionId: sessionId })).toBe(20);
    const task = await transcribe(userId, first);
    expect(task.secondsCharged).toBe(30);
    expect(task.liveCreditUsed).toBe(20);
    expect(await balances(userId, cardId)).toEqual({ card: 3550, today: 50 });
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: first } })).liveCreditSeconds).toBe(0);

    // the same session claimed again (another record, or the same upload replayed): no credit
    const second = await record(userId, 50);
    expect(await claimLiveCredit(t.domain, { userId, fileId: second, liveSessionId: sessionId })).toBe(0);
    expect(await claimLiveCredit(t.domain, { userId, fileId: first, liveSessionId: sessionId })).toBe(0);
    const full = await transcribe(userId, second);
    expect(full.secondsCharged).toBe(50);
    expect(full.liveCreditUsed).toBe(0);
    expect(await balances(userId, cardId)).toEqual({ card: 3500, today: 100 });
  });

  it("a failed transcription refunds exactly what it charged and restores the credit it used", async () => {
    const { userId, cardId } = await userWithCard(3600);
    const sessionId = await liveSession(userId, 1, 12);
    const fileId = await record(userId, 40);
    expect(await claimLiveCredit(t.domain, { userId, fileId, liveSessionId: sessionId })).toBe(12);
    const task = await transcribe(userId, fileId);
    expect({ charged: task.secondsCharged, credit: task.liveCreditUsed }).toEqual({ charged: 28, credit: 12 });
    expect(await balances(userId, cardId)).toEqual({ card: 3560, today: 40 });

    expect(await failTask(t.domain, task.id, { code: 99999, reason: "engine-failed" })).toBe(true);
    // the live session's 12 s stay paid (it was decoded); the task's 28 s come back, the credit too
    expect(await balances(userId, cardId)).toEqual({ card: 3588, today: 12 });
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } })).liveCreditSeconds).toBe(12);
    // a second failure report refunds nothing more
    expect(await failTask(t.domain, task.id, { code: 99999, reason: "engine-failed" })).toBe(false);
    expect(await balances(userId, cardId)).toEqual({ card: 3588, today: 12 });

    // transcribed again: the restored credit is used again, once
    const again = await transcribe(userId, fileId);
    expect({ charged: again.secondsCharged, credit: again.liveCreditUsed }).toEqual({ charged: 28, credit: 12 });
    expect(await balances(userId, cardId)).toEqual({ card: 3560, today: 40 });
  });

  it("a credit larger than the recording covers it whole and keeps the rest for later", async () => {
    const { userId, cardId } = await userWithCard(3600);
    const sessionId = await liveSession(userId, 2, 30);
    const fileId = await record(userId, 10);
    expect(await claimLiveCredit(t.domain, { userId, fileId, liveSessionId: sessionId })).toBe(30);
    const task = await transcribe(userId, fileId);
    expect({ charged: task.secondsCharged, credit: task.liveCreditUsed }).toEqual({ charged: 0, credit: 10 });
    expect(await balances(userId, cardId)).toEqual({ card: 3570, today: 30 });
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } })).liveCreditSeconds).toBe(20);
  });

  it("claimed before the session ends: the settle takes back only credit not yet used", async () => {
    const { userId, cardId } = await userWithCard(3600);
    const sessionId = await liveSession(userId, 2);
    const fileId = await record(userId, 60);
    // the upload finished while the captions were still closing: 30 s claimed, 18 s decoded in the end
    expect(await claimLiveCredit(t.domain, { userId, fileId, liveSessionId: sessionId })).toBe(30);
    expect(await endLiveSession(t.domain, { id: sessionId, reason: "done", decodedSeconds: 18 })).toBe(12);
    expect(await balances(userId, cardId)).toEqual({ card: 3582, today: 18 });
    expect((await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } })).liveCreditSeconds).toBe(18);
    // settling again gives nothing more back
    expect(await endLiveSession(t.domain, { id: sessionId, reason: "done", decodedSeconds: 18 })).toBe(0);
    const task = await transcribe(userId, fileId);
    expect({ charged: task.secondsCharged, credit: task.liveCreditUsed }).toEqual({ charged: 42, credit: 18 });
    expect(await balances(userId, cardId)).toEqual({ card: 3540, today: 60 });
  });

  it("claims only the user's own sessions, for the user's own record", async () => {
    const alice = await userWithCard(3600);
    const bob = await userWithCard(3600);
    const alices = await liveSession(alice.userId, 1, 15);
    const bobsRecord = await record(bob.userId, 30);
    expect(await claimLiveCredit(t.domain, { userId: bob.userId, fileId: bobsRecord, liveSessionId: alices })).toBe(0);
    // Alice naming Bob's record gets nothing either, and her session stays claimable
    expect(await claimLiveCredit(t.domain, { userId: alice.userId, fileId: bobsRecord, liveSessionId: alices })).toBe(
      0,
    );
    const alicesRecord = await record(alice.userId, 30);
    expect(
      await claimLiveCredit(t.domain, { userId: alice.userId, fileId: alicesRecord, liveSessionId: ` ${alices},nope` }),
    ).toBe(15);
  });

  it("two records claiming one session at once: one gets it", async () => {
    const { userId } = await userWithCard(3600);
    const sessionId = await liveSession(userId, 1, 15);
    const files = await Promise.all([record(userId, 30), record(userId, 30), record(userId, 30)]);
    const credits = await Promise.all(
      files.map((fileId) => claimLiveCredit(t.domain, { userId, fileId, liveSessionId: sessionId })),
    );
    expect(credits.sort()).toEqual([0, 0, 15]);
  });

  it("the upload path claims it: the tus metadata or the multipart field `liveSessionId` credits the new record", async () => {
    const fx = await makeMediaFixtures();
    try {
      const who = await signIn(t);
      await seedCards(t.db, who.userId, [{ seconds: 3600 }]);
      const viaTus = await liveSession(who.userId, 1, 12);
      const viaForm = await liveSession(who.userId, 1, 9);
      const wav = await readFile(fx.wav);
      const b64 = (v: string) => Buffer.from(v).toString("base64");
      const made = await t
        .http()
        .post(TUS_PATH)
        .set({ "Tus-Resumable": "1.0.0", Cookie: who.cookie })
        .set("Upload-Length", String(wav.length))
        .set("Upload-Metadata", `filename ${b64("recording.wav")},liveSessionId ${b64(viaTus)}`);
      const done = await t
        .http()
        .patch(made.headers.location as string)
        .set({ "Tus-Resumable": "1.0.0", Cookie: who.cookie })
        .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
        .send(wav);
      const fromTus = JSON.parse(done.text).data.fileId as number;
      const form = await t
        .http()
        .post("/voice_yuelu/api/v1/audio/upload")
        .set("Cookie", who.cookie)
        .field("liveSessionId", viaForm)
        .attach("file", wav, "recording.wav");
      expect(form.body.status_code, form.body.status_msg).toBe(1);
      const credit = async (fileId: number) =>
        (await t.db.audioRecord.findUniqueOrThrow({ where: { fileId } })).liveCreditSeconds;
      expect(await credit(fromTus)).toBe(12);
      expect(await credit(form.body.data.fileId)).toBe(9);
    } finally {
      await fx.cleanup();
    }
  });
});
