import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { MY_VOICE_MAX_COUNT, VOICE_DAILY_WORKS } from "@yuelu/contracts";
import { businessDay } from "@yuelu/domain";
import type { Test } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm, ffmpegBinary } from "../../apps/worker/src/audio/pcm.ts";
import { startVoiceWorker } from "../../apps/worker/src/voice-worker.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { waitFor } from "../helpers/tasks.ts";
import { reportTtsEngines } from "../helpers/tts.ts";
import { generatedSong, jfk, midiBytes, repeat, stereoWav, wavBytes, yinMedian } from "../helpers/voice.ts";

/**
 * The voice pages' API (docs/voice.md): uploads with bad input, limits and quota under parallel
 * requests, other users' voices and works, and the whole path through a real voice worker with the
 * offline engines (espeak-ng WASM, Rubber Band WASM, the bundled ffmpeg).
 */

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-voice-api-"));
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
let ids = 0;
const requestId = () => `req-${process.pid}-${Date.now()}-${++ids}`;
const SAMPLE = () => wavBytes(repeat(jfk(), 2)); // 22 s of one real speaker

async function user(): Promise<SignedIn> {
  for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) {
    await t.limiter.reset(`sms:ip:${ip}`);
    await t.limiter.reset(`login:ip:${ip}`);
  }
  const who = await signIn(t);
  // not a member (new users may get a trial membership): the ordinary daily limit applies
  await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: null } });
  return who;
}

function createVoice(who: SignedIn, file: Buffer, fields: Record<string, string> = {}, name = "sample.wav") {
  const req = t.http().post(api("/voice/my_voice/create")).set("Cookie", who.cookie);
  for (const [k, v] of Object.entries({ name: "我的声音", language: "en", ...fields })) req.field(k, v);
  return req.attach("file", file, name);
}

function sing(who: SignedIn, fields: Record<string, string>, midi?: Buffer) {
  const req = t.http().post(api("/voice/sing/create")).set("Cookie", who.cookie);
  for (const [k, v] of Object.entries(fields)) req.field(k, v);
  if (midi) req.attach("midi", midi, "tune.mid");
  return req;
}

function convert(who: SignedIn, file: Buffer, fields: Record<string, string> = {}, name = "song.wav") {
  const req = t.http().post(api("/voice/convert/create")).set("Cookie", who.cookie);
  for (const [k, v] of Object.entries({ semitones: "3", ...fields })) req.field(k, v);
  return req.attach("file", file, name);
}

/** Keys in the file store under `prefix`. */
async function stored(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of t.files.list(prefix)) keys.push(f.key);
  return keys;
}

const binary = (req: Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => done(null, Buffer.concat(chunks)));
  });

describe("sign-in", () => {
  it.each([
    ["POST", "/voice/my_voice/create"],
    ["GET", "/voice/my_voice/list"],
    ["GET", "/voice/my_voice/preview?voiceId=1"],
    ["POST", "/voice/sing/create"],
    ["POST", "/voice/convert/create"],
    ["GET", "/voice/works/list"],
    ["GET", "/voice/works/file?workId=1"],
    ["GET", "/voice/quota"],
  ])("%s %s without a session → 10001", async (method, p) => {
    const res = method === "GET" ? await t.http().get(api(p)) : await t.http().post(api(p)).send({});
    expect(res.body).toMatchObject({ status_code: 10001, data: null });
  });

  it("the built-in tunes and what the install can do are public; offline it is voice matching, not cloning", async () => {
    const tunes = (await t.http().get(api("/voice/tunes")).set("lang", "en")).body.data.list;
    expect(tunes.length).toBeGreaterThanOrEqual(3);
    for (const tune of tunes) expect(tune.melody.length).toBeGreaterThan(4);
    const caps = (await t.http().get(api("/voice/capabilities"))).body.data;
    expect(caps).toMatchObject({ myVoiceMethod: "match", separator: "centre", converter: "dsp" });
  });
});

describe("my voice: uploads", () => {
  it("accepts 22 s of speech once per requestId (a double click makes one voice and stores one sample)", async () => {
    const who = await user();
    const rid = requestId();
    const [a, b] = await Promise.all([
      createVoice(who, SAMPLE(), { requestId: rid }),
      createVoice(who, SAMPLE(), { requestId: rid }),
    ]);
    expect(a.body.status_code).toBe(1);
    expect(b.body.status_code).toBe(1);
    expect(b.body.data.voiceId).toBe(a.body.data.voiceId);
    expect(a.body.data).toMatchObject({ status: 3, method: "match", language: "en" });
    expect(a.body.data.sampleSeconds).toBeCloseTo(22, 0);
    expect(await t.db.userVoice.count({ where: { userId: who.userId } })).toBe(1);
    expect(await stored(`voice/${who.userId}/samples/`)).toHaveLength(1);
  });

  it.each([
    ["a 2-second clip", () => wavBytes(jfk().subarray(0, 32_000)), "sample.wav", /too short|太短/],
    ["a corrupt file", () => Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(5000, 7)]), "sample.wav", /./],
    ["a text file named .mp3", () => Buffer.from("hello ".repeat(2000)), "sample.mp3", /./],
  ])("refuses %s with 20004 saying why, and stores nothing", async (_name, file, filename, why) => {
    const who = await user();
    const res = await createVoice(who, file(), {}, filename).set("lang", "en");
    expect(res.body.status_code).toBe(20004);
    expect(res.body.status_msg).toMatch(why);
    expect(await t.db.userVoice.count({ where: { userId: who.userId } })).toBe(0);
    expect(await stored(`voice/${who.userId}/`)).toHaveLength(0);
  });

  it("refuses a 3-hour recording as too long (probed, not trusted from the name)", async () => {
    const who = await user();
    const file = path.join(dir, "three-hours.mp3");
    execFileSync(ffmpegBinary(), [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "anullsrc=r=8000:cl=mono",
      "-t",
      "10800",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "8k",
      "-y",
      file,
    ]);
    const res = await createVoice(who, await readFile(file), {}, "three-hours.mp3").set("lang", "en");
    expect(res.body.status_code).toBe(20004);
    expect(res.body.status_msg).toMatch(/too long/);
    expect(await stored(`voice/${who.userId}/`)).toHaveLength(0);
  });

  it("names the bad field: a 100-character name, a missing file, an unknown language", async () => {
    const who = await user();
    const long = await createVoice(who, SAMPLE(), { name: "名".repeat(100) }).set("lang", "en");
    expect(long.body.status_code).toBe(10002);
    expect(long.body.status_msg).toMatch(/name/);
    const noFile = await t
      .http()
      .post(api("/voice/my_voice/create"))
      .set("Cookie", who.cookie)
      .field("name", "x")
      .field("language", "en");
    expect(noFile.body.status_code).toBe(10002);
    expect(noFile.body.status_msg).toMatch(/file/);
    const lang = await createVoice(who, SAMPLE(), { language: "fr" });
    expect(lang.body.status_code).toBe(10002);
    expect(await stored(`voice/${who.userId}/`)).toHaveLength(0);
  });

  it(`keeps at most ${MY_VOICE_MAX_COUNT} voices, counted before comparing under parallel requests`, async () => {
    const who = await user();
    const answers = await Promise.all(Array.from({ length: MY_VOICE_MAX_COUNT + 3 }, () => createVoice(who, SAMPLE())));
    const codes = answers.map((r) => r.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(MY_VOICE_MAX_COUNT);
    expect(codes.filter((c) => c === 50005)).toHaveLength(3);
    expect(await t.db.userVoice.count({ where: { userId: who.userId } })).toBe(MY_VOICE_MAX_COUNT);
    // the refused ones left no sample behind
    expect(await stored(`voice/${who.userId}/samples/`)).toHaveLength(MY_VOICE_MAX_COUNT);
  });
});

describe("works: bad input", () => {
  it("sing needs a tune or a MIDI file, and lyrics that fit the melody", async () => {
    const who = await user();
    const none = await sing(who, { lyrics: "啦啦啦", language: "zh" }).set("lang", "en");
    expect(none.body).toMatchObject({ status_code: 10002 });
    expect(none.body.status_msg).toMatch(/tuneId/);
    const unknown = await sing(who, { tuneId: "no-such-tune", lyrics: "啦", language: "zh" });
    expect(unknown.body.status_code).toBe(10002);
    const tune = (await t.http().get(api("/voice/tunes"))).body.data.list[0];
    const tooLong = await sing(who, {
      tuneId: tune.id,
      lyrics: "啊".repeat(tune.melody.length + 1),
      language: "zh",
    }).set("lang", "en");
    expect(tooLong.body.status_code).toBe(10002);
    expect(tooLong.body.status_msg).toMatch(/lyrics/);
    expect(await t.db.voiceWork.count({ where: { userId: who.userId } })).toBe(0);
  });

  it("refuses a MIDI file with no notes and one that is not MIDI, and keeps nothing", async () => {
    const who = await user();
    const empty = await sing(who, { lyrics: "la la", language: "en" }, midiBytes([])).set("lang", "en");
    expect(empty.body.status_code).toBe(20004);
    expect(empty.body.status_msg).toMatch(/no notes/);
    const garbage = await sing(who, { lyrics: "la la", language: "en" }, Buffer.from("not a midi file at all")).set(
      "Accept-Language",
      "en",
    );
    expect(garbage.body.status_code).toBe(20004);
    expect(await t.db.voiceWork.count({ where: { userId: who.userId } })).toBe(0);
    expect(await stored(`voice/${who.userId}/`)).toHaveLength(0);
  });

  it("sings an uploaded MIDI melody: notes in the view with the syllables under them (fewer syllables: the rest on 'la')", async () => {
    const who = await user();
    const notes = [60, 62, 64, 65, 67, 65, 64, 62].map((midi, i) => ({ midi, start: i, duration: 1 }));
    const res = await sing(
      who,
      { lyrics: "twinkle little star", language: "en", keyShift: "2", requestId: requestId() },
      midiBytes(notes, 90, true),
    );
    expect(res.body.status_code).toBe(1);
    const work = res.body.data;
    expect(work).toMatchObject({ kind: "sing", status: 3, bpm: 90, keyShift: 2 });
    expect(work.notes.map((n: { midi: number }) => n.midi)).toEqual(notes.map((n) => n.midi + 2));
    expect(work.notes.map((n: { syllable: string }) => n.syllable)).toEqual([
      "twin",
      "kle",
      "lit",
      "tle",
      "star",
      "la",
      "la",
      "la",
    ]);
    expect(await stored(`voice/${who.userId}/midi/`)).toHaveLength(1);
  });

  it("convert refuses a corrupt song and one over 10 minutes", async () => {
    const who = await user();
    const bad = await convert(who, Buffer.concat([Buffer.from("ID3"), Buffer.alloc(4000, 1)]), {}, "song.mp3");
    expect(bad.body.status_code).toBe(20004);
    const file = path.join(dir, "eleven-minutes.mp3");
    execFileSync(ffmpegBinary(), [
      "-hide_banner",
      "-loglevel",
      "error",
      "-f",
      "lavfi",
      "-i",
      "anullsrc=r=8000:cl=mono",
      "-t",
      "660",
      "-c:a",
      "libmp3lame",
      "-b:a",
      "8k",
      "-y",
      file,
    ]);
    const long = await convert(who, await readFile(file), {}, "long.mp3").set("lang", "en");
    expect(long.body.status_code).toBe(20004);
    expect(long.body.status_msg).toMatch(/10 minutes/);
    expect(await stored(`voice/${who.userId}/`)).toHaveLength(0);
  });

  it(`counts ${VOICE_DAILY_WORKS} works a day exactly once under parallel requests`, async () => {
    const who = await user();
    const tune = (await t.http().get(api("/voice/tunes"))).body.data.list[0];
    const answers = await Promise.all(
      Array.from({ length: VOICE_DAILY_WORKS + 4 }, () =>
        sing(who, { tuneId: tune.id, lyrics: "啦啦", language: "zh" }),
      ),
    );
    const codes = answers.map((r) => r.body.status_code);
    expect(codes.filter((c) => c === 1)).toHaveLength(VOICE_DAILY_WORKS);
    expect(codes.filter((c) => c === 50004)).toHaveLength(4);
    const day = businessDay(new Date(), t.config.BUSINESS_TZ);
    const used = await t.db.voiceQuotaDay.findUnique({ where: { userId_day: { userId: who.userId, day } } });
    expect(used?.used).toBe(VOICE_DAILY_WORKS);
    // deleting a work that has not run gives its unit back, once
    const first = answers.find((r) => r.body.status_code === 1)!.body.data.workId;
    const del = () =>
      t
        .http()
        .post(api("/voice/works/delete"))
        .set("Cookie", who.cookie)
        .send({ workIds: [first] });
    const [d1, d2] = await Promise.all([del(), del()]);
    expect([d1.body.status_code, d2.body.status_code].sort()).toEqual([1, 20003]);
    expect((await t.http().get(api("/voice/quota")).set("Cookie", who.cookie)).body.data.used).toBe(
      VOICE_DAILY_WORKS - 1,
    );
  });
});

describe("nobody else's voice, sample or work", () => {
  it("another user's voice and work answer 20003 everywhere, and cannot be used", async () => {
    const owner = await user();
    const other = await user();
    const voiceId = (await createVoice(owner, SAMPLE())).body.data.voiceId;
    const tune = (await t.http().get(api("/voice/tunes"))).body.data.list[0];
    const workId = (await sing(owner, { tuneId: tune.id, lyrics: "啦", language: "zh" })).body.data.workId;
    const as = (req: Test) => req.set("Cookie", other.cookie);
    const answers = [
      await as(t.http().get(api(`/voice/my_voice/get?voiceId=${voiceId}`))),
      await as(t.http().get(api(`/voice/my_voice/sample?voiceId=${voiceId}`))),
      await as(t.http().get(api(`/voice/my_voice/preview?voiceId=${voiceId}`))),
      await as(t.http().post(api("/voice/my_voice/rename")).send({ voiceId, name: "mine now" })),
      await as(t.http().post(api("/voice/my_voice/delete")).send({ voiceId })),
      await as(
        t
          .http()
          .post(api("/voice/my_voice/retrain"))
          .field("voiceId", String(voiceId))
          .attach("file", SAMPLE(), "s.wav"),
      ),
      await as(t.http().get(api(`/voice/works/file?workId=${workId}`))),
      await as(t.http().post(api("/voice/works/rename")).send({ workId, title: "mine now" })),
      await as(
        t
          .http()
          .post(api("/voice/works/delete"))
          .send({ workIds: [workId] }),
      ),
      await as(t.http().post(api("/tts/start_tts")).send({ text: "hello there", myVoiceId: voiceId })),
      await as(sing(other, { tuneId: tune.id, lyrics: "啦", language: "zh", myVoiceId: String(voiceId) })),
    ];
    for (const res of answers) expect(res.body.status_code).toBe(20003);
    expect((await as(t.http().get(api("/voice/my_voice/list")))).body.data.total).toBe(0);
    expect((await as(t.http().get(api(`/voice/my_voice/progress?voiceIds=${voiceId}`)))).body.data).toEqual([]);
    expect((await as(t.http().get(api(`/voice/works/progress?workIds=${workId}`)))).body.data).toEqual([]);
    expect((await t.db.userVoice.findUniqueOrThrow({ where: { id: voiceId } })).name).toBe("我的声音");
    expect(await stored(`voice/${other.userId}/`)).toHaveLength(0);
  });

  it("a voice not analysed yet cannot speak (10002 naming myVoiceId)", async () => {
    const who = await user();
    const voiceId = (await createVoice(who, SAMPLE())).body.data.voiceId;
    const res = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", who.cookie)
      .send({ text: "hello there", myVoiceId: voiceId });
    expect(res.body.status_code).toBe(10002);
    expect(res.body.status_msg).toMatch(/myVoiceId/);
  });
});

describe("through a real voice worker (offline engines)", () => {
  let stop: () => Promise<void>;
  beforeAll(async () => {
    const workerId = await reportTtsEngines(t.db, t.config);
    const silent = {
      info: (o: unknown, m?: string) =>
        process.env.VOICE_TEST_LOG && console.log(new Date().toISOString(), m, JSON.stringify(o).slice(0, 300)),
      warn() {},
      error: (o: unknown, m?: string) => process.env.VOICE_TEST_LOG && console.log(m, o),
    };
    const worker = startVoiceWorker(
      { db: t.db, config: t.config, queues: t.queues, files: t.files, events: t.events, log: silent },
      { progressEveryMs: 0 },
    );
    await worker.waitUntilReady();
    stop = async () => {
      await worker.close();
      await t.db.workerHeartbeat.deleteMany({ where: { workerId } });
    };
  });
  afterAll(async () => stop?.());

  const done = async (who: SignedIn, kind: "my_voice" | "works", id: number) => {
    const param = kind === "my_voice" ? "voiceIds" : "workIds";
    return waitFor(
      `${kind} ${id} to finish`,
      async () => {
        const [item] = (
          await t
            .http()
            .get(api(`/voice/${kind}/progress?${param}=${id}`))
            .set("Cookie", who.cookie)
        ).body.data;
        return item.status === 2 || item.status === -1 ? item : undefined;
      },
      // generous: on a loaded 2-core CI machine a training waits behind other suites for the cores
      300_000,
    );
  };

  it("makes a voice from a real human sample, speaks with it, sings with it, and deleting it removes its files", async () => {
    const who = await user();
    const created = (await createVoice(who, SAMPLE(), { name: "JFK" })).body.data;
    const ready = await done(who, "my_voice", created.voiceId);
    expect(ready).toMatchObject({ status: 2 });
    const voice = (
      await t
        .http()
        .get(api(`/voice/my_voice/get?voiceId=${created.voiceId}`))
        .set("Cookie", who.cookie)
    ).body.data;
    expect(voice.profile.medianHz).toBeGreaterThan(80);
    expect(voice.profile.medianHz).toBeLessThan(300);
    expect(voice.baseVoiceName).not.toBe("");
    // a man (JFK shouts at ~255 Hz, a woman's register) is based on a man's voice, never a woman's or a child's
    const row = await t.db.userVoice.findUniqueOrThrow({ where: { id: created.voiceId } });
    const base = await t.db.voiceLibraryItem.findUniqueOrThrow({ where: { promptId: row.basePromptId! } });
    expect({ gender: base.gender, child: base.ageGroup === "child" }).toEqual({ gender: "male", child: false });
    expect(row.profile).toMatchObject({ apparent: { sex: "male", age: "adult" } });
    const preview = await binary(t.http().get(voice.previewUrl).set("Cookie", who.cookie));
    expect(preview.headers["content-type"]).toBe("audio/mpeg");
    expect((preview.body as Buffer).length).toBeGreaterThan(5000);
    // measured as an outside client would: the preview's median pitch (pitchfinder) within 10 % of the sample's
    const previewFile = path.join(dir, `preview-${created.voiceId}.mp3`);
    await writeFile(previewFile, preview.body as Buffer);
    const heard = Float32Array.from((await decodeToPcm(previewFile)).samples, (v) => v / 32768);
    expect(Math.abs(yinMedian(heard) / yinMedian(repeat(jfk(), 2)) - 1)).toBeLessThanOrEqual(0.1);
    const message = await t.db.notification.findFirst({
      where: { userId: who.userId, sourceRef: { startsWith: `myvoice:${created.voiceId}:` } },
    });
    expect(message?.notifyTitleEn ?? message?.notifyTitle).toBeTruthy();

    const tts = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", who.cookie)
      .send({ text: "hello there, my friend", myVoiceId: created.voiceId });
    expect(tts.body.status_code).toBe(1);
    expect(tts.body.data.voiceName).toBe("JFK");

    const tune = (await t.http().get(api("/voice/tunes"))).body.data.list[0];
    const work = (
      await sing(who, { tuneId: tune.id, lyrics: tune.lyrics, language: "zh", myVoiceId: String(created.voiceId) })
    ).body.data;
    const sung = await done(who, "works", work.workId);
    expect(sung).toMatchObject({ status: 2 });
    const audio = await binary(
      t
        .http()
        .get(api(`/voice/works/file?workId=${work.workId}&inline=1`))
        .set("Cookie", who.cookie),
    );
    expect(audio.headers["content-type"]).toBe("audio/mpeg");

    const keys = await stored(`voice/${who.userId}/`);
    expect(keys.some((k) => k.includes("/samples/"))).toBe(true);
    expect(keys.some((k) => k.includes("/previews/"))).toBe(true);
    const del = await t
      .http()
      .post(api("/voice/my_voice/delete"))
      .set("Cookie", who.cookie)
      .send({ voiceId: created.voiceId });
    expect(del.body.status_code).toBe(1);
    const left = await stored(`voice/${who.userId}/`);
    expect(left.filter((k) => k.includes("/samples/") || k.includes("/previews/"))).toEqual([]);
  }, 600_000);

  it("fails a silent sample with 40003 'no speech' and gives the day's unit back", async () => {
    const who = await user();
    const created = (await createVoice(who, wavBytes(new Float32Array(16_000 * 15)))).body.data;
    const failed = await done(who, "my_voice", created.voiceId);
    expect(failed.status).toBe(-1);
    expect(failed.errorCode).toBe(40003);
    expect((await t.http().get(api("/voice/quota")).set("Cookie", who.cookie)).body.data.used).toBe(0);
  }, 400_000);

  it("converts a stereo song: the result keeps its length, and the original stays playable", async () => {
    const who = await user();
    const song = generatedSong(6);
    const res = await convert(who, stereoWav(song.left, song.right, 32_000), { semitones: "-3" });
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const work = res.body.data;
    expect(work).toMatchObject({ kind: "convert", semitones: -3 });
    const converted = await done(who, "works", work.workId);
    expect(converted).toMatchObject({ status: 2 });
    const view = (await t.http().get(api("/voice/works/list?kind=convert")).set("Cookie", who.cookie)).body.data
      .list[0];
    expect(Math.abs(view.durationMs - 6000)).toBeLessThan(120);
    const original = await binary(t.http().get(view.originalUrl).set("Cookie", who.cookie));
    expect(original.status).toBe(200);
    const vocals = await binary(
      t
        .http()
        .get(api(`/voice/works/file?workId=${work.workId}&part=vocals`))
        .set("Cookie", who.cookie),
    );
    expect(vocals.headers["content-type"]).toBe("audio/mpeg");
  }, 400_000);
});
