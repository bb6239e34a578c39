import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { FileStatus, MEDIA_LENGTH_TOLERANCE_SECONDS, type Segment } from "@yuelu/contracts";
import { decodedSeconds, PCM_RATE } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { probeMedia } from "../../apps/api/src/modules/records/probe.ts";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { repeatedFlac, silentFlac, withClaimedFlacLength } from "../fixtures/media.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { seedCards } from "../helpers/factories.ts";
import { createChargedTask } from "../helpers/tasks.ts";
import { TUS_PATH } from "../helpers/tus.ts";
import { JFK_WAV } from "../helpers/voice.ts";

/**
 * Issue 40 §1, replayed: the length a user pays for is the length of audio the product hears. A FLAC's
 * STREAMINFO is 8 editable bytes: 132 s of real speech edited to claim 11 s was charged 11 s and
 * transcribed whole, on the web upload and on /v1 alike, and a 2-hour silent FLAC claiming 1 s was
 * decoded whole by the worker. Now every path that takes media measures the audio by decoding it, refuses
 * a header that disagrees with it, and no decode runs past what was charged.
 */
const api = (p: string) => `/voice_yuelu${p}`;
let t: TestApp;
let dir: string;
let speech: string;
let edited: string;
let silentClaimingOne: string;
let origin: string;

beforeAll(async () => {
  [t, dir] = await Promise.all([createTestApp(), mkdtemp(path.join(tmpdir(), "yuelu-meter-"))]);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  // 12 × JFK = 132 s of real human speech, then its header edited to claim 11 s
  speech = await repeatedFlac(JFK_WAV, 12, path.join(dir, "speech-132s.flac"));
  edited = await withClaimedFlacLength(speech, path.join(dir, "claims-11s.flac"), 11);
  silentClaimingOne = await withClaimedFlacLength(
    await silentFlac(path.join(dir, "silent-2h.flac"), 7200),
    path.join(dir, "silent-2h-claims-1s.flac"),
    1,
  );
}, 120_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** What a user has: records, files under their prefix, the day's charged seconds, card seconds left. */
async function holdings(who: SignedIn) {
  const [records, day, cards] = await Promise.all([
    t.db.audioRecord.count({ where: { userId: who.userId } }),
    t.db.quotaDay.aggregate({ where: { userId: who.userId }, _sum: { secondsUsed: true } }),
    t.db.timeCard.aggregate({ where: { userId: who.userId }, _sum: { remaining: true } }),
  ]);
  let stored = 0;
  for await (const _file of t.files.list(`media/${who.userId}/`)) stored++;
  return { records, charged: day._sum.secondsUsed ?? 0, cardLeft: cards._sum.remaining ?? 0, stored };
}

const upload = (who: SignedIn, file: string, name: string, lang = "en") =>
  readFile(file).then((bytes) =>
    t.http().post(api("/api/v1/audio/upload")).set("Cookie", who.cookie).set("lang", lang).attach("file", bytes, name),
  );

describe("the length charged is the length decoded", () => {
  it("measures what the header hides: ffprobe's header says 11 s, the decode 132 s", async () => {
    const facts = await probeMedia(speech, { maxSeconds: 5 * 3600 });
    expect(facts.duration).toBeCloseTo(132, 0);
    await expect(probeMedia(edited, { maxSeconds: 5 * 3600 })).rejects.toMatchObject({ reason: "length_mismatch" });
  });

  it("the web upload refuses the edited FLAC (20004, the user's language), keeping and charging nothing", async () => {
    const who = await signIn(t);
    const before = await holdings(who);
    const en = await upload(who, edited, "meeting.flac", "en");
    expect(en.body.status_code).toBe(20004);
    expect(en.body.status_msg).toMatch(/header does not match its audio/);
    const zh = await upload(who, edited, "meeting.flac", "zh");
    expect(zh.body.status_code).toBe(20004);
    expect(zh.body.status_msg).toMatch(/时长与实际音频不符/);
    expect(await holdings(who)).toEqual(before);

    // the same recording with its true header is accepted and charged its 132 s when transcribed
    const honest = await upload(who, speech, "meeting.flac");
    expect(honest.body).toMatchObject({ status_code: 1, data: { timeLen: 132 } });
    await seedCards(t.db, who.userId, [{ seconds: 3600 }]);
    const asked = await t
      .http()
      .post(api("/api/v2/dictation/audio/dictation"))
      .set("Cookie", who.cookie)
      .send({ fileId: honest.body.data.fileId, dictationParam: JSON.stringify({ language: "en", speakerCount: 1 }) });
    expect(asked.body.status_code, asked.body.status_msg).toBe(1);
    expect((await holdings(who)).charged).toBe(132);
  }, 60_000);

  it("the resumable upload refuses it when its last byte lands (422, 20004), leaving no upload and no record", async () => {
    const who = await signIn(t);
    const bytes = await readFile(edited);
    const headers = { "Tus-Resumable": "1.0.0", lang: "en", Cookie: who.cookie };
    const made = await t
      .http()
      .post(TUS_PATH)
      .set(headers)
      .set("Upload-Length", String(bytes.length))
      .set("Upload-Metadata", `filename ${Buffer.from("meeting.flac").toString("base64")}`);
    expect(made.status).toBe(201);
    const sent = await t
      .http()
      .patch(made.headers.location as string)
      .set(headers)
      .set({ "Upload-Offset": "0", "Content-Type": "application/offset+octet-stream" })
      .send(bytes);
    expect(sent.status).toBe(422);
    expect(JSON.parse(sent.text)).toMatchObject({ status_code: 20004 });
    expect(JSON.parse(sent.text).status_msg).toMatch(/header does not match/);
    expect(
      (
        await t
          .http()
          .head(made.headers.location as string)
          .set(headers)
      ).status,
    ).toBe(404);
    expect((await holdings(who)).records).toBe(0);
  });

  it("/v1/audio/transcriptions refuses it in OpenAI's shape, with nothing kept or charged", async () => {
    const who = await signIn(t);
    await seedCards(t.db, who.userId, [{ seconds: 3600 }]);
    const made = await t.http().post(api("/api/v1/api_keys/create")).set("Cookie", who.cookie).send({ name: "meter" });
    expect(made.body.status_code, made.body.status_msg).toBe(1);
    const before = await holdings(who);
    const form = new FormData();
    form.append("model", "whisper-1");
    form.append("file", new Blob([await readFile(edited)], { type: "audio/flac" }), "meeting.flac");
    const res = await fetch(`${origin}/v1/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${made.body.data.key}`, lang: "en" },
      body: form,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { code: string; param: string; message: string } };
    expect(body.error).toMatchObject({ code: "20004", param: "file" });
    expect(body.error.message).toMatch(/header does not match/);
    expect(await holdings(who)).toEqual(before);
  }, 60_000);

  it("a 2-hour silent FLAC claiming 1 s is refused; as a speech sample its measure stops just past a sample's 2 minutes", async () => {
    const who = await signIn(t);
    const res = await upload(who, silentClaimingOne, "note.flac");
    expect(res.body.status_code).toBe(20004);
    expect(res.body.status_msg).toMatch(/header does not match/);
    expect((await holdings(who)).records).toBe(0);

    // as a speech sample (at most 2 minutes), the decode stops just past the limit: "too long", not 2 hours decoded
    const sample = await t
      .http()
      .post(api("/voice/my_voice/create"))
      .set("Cookie", who.cookie)
      .set("lang", "en")
      .field("name", "me")
      .field("language", "en")
      .attach("file", await readFile(silentClaimingOne), "sample.flac");
    expect(sample.body.status_code, JSON.stringify(sample.body)).toBe(20004);
    expect(sample.body.status_msg).toMatch(/too long/i);
    expect(await t.db.userVoice.count({ where: { userId: who.userId } })).toBe(0);
  }, 60_000);

  it("no decode runs past its limit: the measure and the worker's decode stop there, in bounded memory", async () => {
    const measured = await decodedSeconds(silentClaimingOne, { maxSeconds: 60 });
    expect(measured).toEqual({ seconds: 60, cut: true });
    const pcm = await decodeToPcm(silentClaimingOne, { expectedSeconds: 1, maxSeconds: 14 });
    expect(pcm.cut).toBe(true);
    expect(pcm.length).toBe(14 * PCM_RATE);
    // the buffer never grew past the cap (its shared memory holds 14 s, not 2 hours)
    expect(pcm.samples.buffer.byteLength).toBeLessThanOrEqual(14 * PCM_RATE * 2);
  });
});

describe("the worker hears only what was charged", () => {
  it("a record charged 11 s whose file holds 132 s is transcribed to 11 s (plus the tolerance), no further", async () => {
    // as a record accepted before this rule (or a file swapped in the store) would be
    const task = await createChargedTask(t.db, t.files, { audioFile: edited, language: "en", speakerCount: 1 });
    await t.db.audioRecord.update({ where: { fileId: task.fileId }, data: { timeLen: 11 } });
    const outcome = await transcribe(task.taskId, {
      domain: t.domain,
      files: t.files,
      asr: () => new MoonshineEngine(),
      progressEveryMs: 0,
    });
    expect(outcome).toMatchObject({ status: "done" });
    const transcript = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
    const segments = transcript.asrResult as unknown as Segment[];
    expect(segments.length).toBeGreaterThan(0);
    expect(Math.max(...segments.map((s) => s.endTime))).toBeLessThanOrEqual(
      (11 + MEDIA_LENGTH_TOLERANCE_SECONDS) * 1000,
    );
    expect(segments.map((s) => s.text).join(" ")).toMatch(/country/i);
    const record = await t.db.audioRecord.findUniqueOrThrow({ where: { fileId: task.fileId } });
    expect(record.fileStatus).toBe(FileStatus.Complete);
  }, 120_000);
});
