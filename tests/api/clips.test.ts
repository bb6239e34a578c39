import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFile, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Segment } from "@yuelu/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startClipsWorker } from "../../apps/worker/src/clips-worker.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { festivalWithTimes, type KnownWord, readWavFloats } from "../helpers/timed-speech.ts";

/**
 * Clips (docs/clips.md, issue 45) over the API, cut by the real clips worker (ffmpeg) from real speech:
 * festival's voice, whose word times are known, as an audio record and as a video record.
 */

const run = promisify(execFile);
const silent = { info() {}, warn() {}, error() {} };
const TEXTS = [
  "The weather was bright and clear this morning.",
  "We walked along the river and talked about our plans for the summer.",
];

let t: TestApp;
let alice: SignedIn;
let bob: SignedIn;
let dir: string;
let speech: { file: string; words: KnownWord[]; seconds: number };
let video: string;
let worker: { close(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  alice = await signIn(t);
  bob = await signIn(t);
  worker = startClipsWorker({
    db: t.db,
    config: t.config,
    queues: t.queues,
    files: t.files,
    events: t.events,
    log: silent,
  });
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-clips-"));
  speech = await festivalWithTimes(TEXTS, path.join(dir, "speech.wav"), { gapSeconds: 0.5 });
  video = path.join(dir, "talk.mp4");
  await run("ffmpeg", [
    ...["-hide_banner", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=25"],
    ...["-i", speech.file, "-shortest", "-c:v", "libx264", "-g", "250", "-pix_fmt", "yuv420p", "-c:a", "aac", video],
  ]);
}, 120_000);
afterAll(async () => {
  await worker?.close();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
const post = (who: SignedIn, p: string, body: object) => t.http().post(api(p)).set("Cookie", who.cookie).send(body);
const get = (who: SignedIn, p: string) => t.http().get(api(p)).set("Cookie", who.cookie);
/** The path of one of our absolute URLs. */
const pathOf = (url: string) => new URL(url).pathname.replace(/^\/voice_yuelu/, "") + new URL(url).search;

/** The transcript of the speech: one segment per sentence, with festival's word times. */
function transcript(): Segment[] {
  const segments: Segment[] = [];
  let k = 0;
  for (const text of TEXTS) {
    const count = text.split(" ").length;
    const words = speech.words.slice(k, k + count);
    k += count;
    segments.push({
      spkName: "说话人1",
      startTime: Math.round(words[0]!.startMs),
      endTime: Math.round(words.at(-1)!.endMs),
      text,
      words: text.split(" ").map((w, i) => ({
        text: w,
        startTime: Math.round(words[i]!.startMs),
        endTime: Math.round(words[i]!.endMs),
      })),
    });
  }
  return segments;
}

/** A record of `who`'s holding `file` in the store, with the speech's transcript. */
async function record(who: SignedIn, file: string, format: "wav" | "mp4") {
  const storageKey = `media/${who.userId}/${randomUUID()}.${format}`;
  const local = path.join(dir, `${randomUUID()}.${format}`);
  await copyFile(file, local);
  await t.files.putFile(storageKey, local);
  const rec = await t.db.audioRecord.create({
    data: {
      userId: who.userId,
      fileName: `talk.${format}`,
      format,
      fileSize: 1000n,
      timeLen: Math.ceil(speech.seconds),
      storageKey,
      fileStatus: 2,
      progress: 100,
    },
  });
  await t.db.transcript.create({ data: { fileId: rec.fileId, asrResult: transcript(), language: "en" } });
  return rec;
}

/** What ffprobe says of a downloaded file: its length (s) and its streams' kinds. */
async function probe(bytes: Buffer, ext: string) {
  const file = path.join(dir, `${randomUUID()}.${ext}`);
  await writeFile(file, bytes);
  const { stdout } = await run("ffprobe", [
    ...["-v", "error", "-show_entries", "format=duration:stream=codec_type,sample_rate", "-of", "json", file],
  ]);
  const info = JSON.parse(stdout) as {
    format: { duration: string };
    streams: { codec_type: string; sample_rate?: string }[];
  };
  return {
    file,
    seconds: Number(info.format.duration),
    kinds: info.streams.map((s) => s.codec_type),
    streams: info.streams,
  };
}

/** 16 kHz mono floats of a media file (ffmpeg). */
async function decode(file: string): Promise<Float32Array> {
  const wav = `${file}.wav`;
  await run("ffmpeg", ["-hide_banner", "-v", "error", "-y", "-i", file, "-ac", "1", "-ar", "16000", wav]);
  return readWavFloats(wav);
}

const download = (who: SignedIn, url: string) =>
  t
    .http()
    .get(api(pathOf(url)))
    .set("Cookie", who.cookie)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => done(null, Buffer.concat(chunks)));
    });

describe("POST /api/v1/clips/create", () => {
  it("cuts the audio at the selected words' boundaries: its length, its words, its own captions, nothing charged", async () => {
    const rec = await record(alice, speech.file, "wav");
    // "talked about our plans for the summer"
    const words = transcript()[1]!.words!;
    const from = words.findIndex((w) => w.text === "talked");
    const startTime = words[from]!.startTime;
    const endTime = words.at(-1)!.endTime;
    const before = await t.db.user.findUniqueOrThrow({ where: { id: alice.userId } });
    const res = await post(alice, "/api/v1/clips/create", { fileId: rec.fileId, startTime, endTime });
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const clip = res.body.data;
    expect(clip).toMatchObject({
      clipId: expect.any(Number),
      fileId: rec.fileId,
      title: "talked about our plans for the summer.",
      startTime,
      endTime,
      kind: "audio",
      status: 2,
      url: expect.stringMatching(/^http:\/\/.+\/voice_yuelu\/api\/v1\/clips\/file\?clipId=\d+$/),
      audioUrl: expect.stringMatching(/\/voice_yuelu\/api\/v1\/clips\/audio\?clipId=\d+$/),
    });
    // its captions: those words, from the clip's start
    expect(clip.segments).toHaveLength(1);
    expect(clip.segments[0]).toMatchObject({ text: "talked about our plans for the summer.", startTime: 0 });
    expect(clip.segments[0].words.map((w: { text: string }) => w.text)).toEqual(
      "talked about our plans for the summer.".split(" "),
    );
    expect(clip.segments[0].endTime).toBe(endTime - startTime);

    const audio = await download(alice, clip.audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mp4");
    const probed = await probe(audio.body as Buffer, "m4a");
    expect(probed.kinds).toEqual(["audio"]);
    // the clip's length is what was asked, within one AAC frame (1024 samples)
    const frame = 1024 / Number(probed.streams[0]!.sample_rate);
    expect(Math.abs(probed.seconds - (endTime - startTime) / 1000)).toBeLessThanOrEqual(frame);
    // it plays: it decodes, and says those words
    const pcm = await decode(probed.file);
    expect(pcm.length / 16_000).toBeCloseTo((endTime - startTime) / 1000, 1);
    const heard = await new MoonshineEngine().transcribe(pcm, { language: "en" });
    const text = heard.segments
      .map((s) => s.text)
      .join(" ")
      .toLowerCase();
    expect(text).toMatch(/plans for the summer/);
    expect(text).not.toMatch(/river|weather/);

    // a byte range of it, as <audio> asks
    const part = await download(alice, clip.url).set("Range", "bytes=0-99");
    expect(part.status).toBe(206);
    expect((part.body as Buffer).length).toBe(100);

    const vtt = await get(alice, `/api/v1/clips/captions?clipId=${clip.clipId}&format=vtt&words=1`);
    expect(vtt.text).toMatch(
      /^WEBVTT\n\n1\n00:00:00\.000 --> 00:00:0\d\.\d{3}\n<v 说话人1>talked <00:00:00\.\d{3}>about /,
    );
    const srt = await get(alice, `/api/v1/clips/captions?clipId=${clip.clipId}&format=srt`);
    expect(srt.text).toMatch(/^1\n00:00:00,000 --> /);

    // cutting charged nothing
    const after = await t.db.user.findUniqueOrThrow({ where: { id: alice.userId } });
    expect(after.beanBalance).toBe(before.beanBalance);
    expect(await t.db.quotaDay.count({ where: { userId: alice.userId } })).toBe(0);
  }, 60_000);

  it("cuts a video record into a video clip (and its sound), only the range encoded", async () => {
    const rec = await record(alice, video, "mp4");
    const words = transcript()[0]!.words!;
    const startTime = words[1]!.startTime; // "weather…"
    const endTime = words[5]!.endTime; // "…clear"
    const res = await post(alice, "/api/v1/clips/create", {
      fileId: rec.fileId,
      startTime,
      endTime,
      title: "天气 clip",
    });
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    expect(res.body.data).toMatchObject({ kind: "video", status: 2, title: "天气 clip" });
    const file = await download(alice, res.body.data.url);
    expect(file.headers["content-type"]).toBe("video/mp4");
    const probed = await probe(file.body as Buffer, "mp4");
    expect(probed.kinds.sort()).toEqual(["audio", "video"]);
    // within a frame of the picture (25 fps) or of the sound
    expect(Math.abs(probed.seconds - (endTime - startTime) / 1000)).toBeLessThanOrEqual(0.065);
    const sound = await probe((await download(alice, res.body.data.audioUrl)).body as Buffer, "m4a");
    expect(sound.kinds).toEqual(["audio"]);
  }, 60_000);

  it("refuses a stretch outside the record or backwards (10002), and another user's record (30001)", async () => {
    const rec = await record(alice, speech.file, "wav");
    for (const [body, field] of [
      [{ fileId: rec.fileId, startTime: 2000, endTime: 1000 }, "endTime"],
      [{ fileId: rec.fileId, startTime: 1000, endTime: 1100 }, "endTime"],
      [{ fileId: rec.fileId, startTime: 3_600_000, endTime: 3_601_000 }, "startTime"],
    ] as const) {
      const res = await post(alice, "/api/v1/clips/create", body);
      expect(res.body.status_code).toBe(10002);
      expect(res.body.status_msg).toContain(field);
    }
    const theirs = await post(bob, "/api/v1/clips/create", { fileId: rec.fileId, startTime: 0, endTime: 1000 });
    expect(theirs.body).toMatchObject({ status_code: 30001, data: null });
    expect(await t.db.clip.count({ where: { fileId: rec.fileId } })).toBe(0);
  });
});

describe("list, delete and the clip's files belong to its owner", () => {
  it("lists the record's clips to its owner only; another user's list, file or delete is 30001", async () => {
    const rec = await record(alice, speech.file, "wav");
    const a = await post(alice, "/api/v1/clips/create", { fileId: rec.fileId, startTime: 300, endTime: 1500 });
    const b = await post(alice, "/api/v1/clips/create", { fileId: rec.fileId, startTime: 1500, endTime: 2500 });
    const list = await get(alice, `/api/v1/clips/list?fileId=${rec.fileId}`);
    expect(list.body.data.total).toBe(2);
    expect(list.body.data.list.map((c: { clipId: number }) => c.clipId)).toEqual([
      b.body.data.clipId,
      a.body.data.clipId,
    ]);
    expect((await get(bob, `/api/v1/clips/list?fileId=${rec.fileId}`)).body.status_code).toBe(30001);
    expect((await download(bob, a.body.data.audioUrl)).body.toString()).toContain('"status_code":30001');
    expect((await post(bob, "/api/v1/clips/delete", { clipId: a.body.data.clipId })).body.status_code).toBe(30001);
    expect(await t.db.clip.count({ where: { fileId: rec.fileId } })).toBe(2);
  }, 60_000);

  it("delete removes the clip and its file", async () => {
    const rec = await record(alice, speech.file, "wav");
    const made = await post(alice, "/api/v1/clips/create", { fileId: rec.fileId, startTime: 300, endTime: 1500 });
    const row = await t.db.clip.findUniqueOrThrow({ where: { id: made.body.data.clipId } });
    expect(row.storageKey).toBeTruthy();
    expect(await t.files.size(row.storageKey!)).toBeGreaterThan(0);
    const res = await post(alice, "/api/v1/clips/delete", { clipId: row.id });
    expect(res.body).toMatchObject({ status_code: 1, data: { clipId: row.id } });
    expect(await t.files.size(row.storageKey!)).toBeNull();
    expect((await get(alice, `/api/v1/clips/list?fileId=${rec.fileId}`)).body.data.total).toBe(0);
    expect((await download(alice, made.body.data.audioUrl)).body.toString()).toContain('"status_code":30001');
    expect((await post(alice, "/api/v1/clips/delete", { clipId: row.id })).body.status_code).toBe(30001);
  }, 60_000);
});

describe("a clip's public link (the share page's rules)", () => {
  it("shows the clip alone, plays its file, asks its password, and ends when revoked", async () => {
    const rec = await record(alice, speech.file, "wav");
    const words = transcript()[1]!.words!;
    const made = await post(alice, "/api/v1/clips/create", {
      fileId: rec.fileId,
      startTime: words[0]!.startTime,
      endTime: words[2]!.endTime,
    });
    const clip = made.body.data;
    expect(clip.title).toBe("We walked along");
    // someone else cannot share it
    const theirs = await post(bob, "/api/v1/share/create", { fileId: rec.fileId, clipId: clip.clipId });
    expect(theirs.body.status_code).toBe(30001);
    const link = await post(alice, "/api/v1/share/create", {
      fileId: rec.fileId,
      clipId: clip.clipId,
      expireDays: 1,
      password: "summer",
    });
    expect(link.body.status_code, link.body.status_msg).toBe(1);
    expect(link.body.data).toMatchObject({ clipId: clip.clipId, hasPassword: true, expireDays: 1 });
    const page = new URL(link.body.data.url).pathname;
    expect((await t.http().get(page)).text).toContain('type="password"');
    const unlocked = await t.http().post(page).type("form").send({ password: "summer" });
    const cookie = unlocked.headers["set-cookie"] as unknown as string[];
    const shown = await t.http().get(page).set("Cookie", cookie);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("We walked along");
    expect(shown.text).not.toContain("river");
    const played = await t.http().get(`${page}/audio`).set("Cookie", cookie);
    expect(played.headers["content-type"]).toBe("audio/mp4");
    const row = await t.db.clip.findUniqueOrThrow({ where: { id: clip.clipId } });
    expect(Number(played.headers["content-length"])).toBe(await t.files.size(row.storageKey!));
    await post(alice, "/api/v1/share/revoke", { id: link.body.data.id });
    expect((await t.http().get(page).set("Cookie", cookie)).status).toBe(410);
  }, 60_000);
});

describe("editing a sentence keeps the times of the words it did not change (issue 45)", () => {
  it("update_para and update_text carry the unchanged words' times; the changed word takes the gap", async () => {
    const rec = await record(alice, speech.file, "wav");
    const before = transcript();
    const para = await post(alice, "/text/update_para", {
      fileId: rec.fileId,
      index: 1,
      text: "We walked along the canal and talked about our plans for the summer.",
    });
    expect(para.body.status_code, para.body.status_msg).toBe(1);
    const read = async () =>
      JSON.parse(
        (await get(alice, `/api/v2/audio/text/get_text?fileId=${rec.fileId}&withWords=1`)).body.data.asrResult,
      );
    const edited = (await read())[1];
    const old = before[1]!.words!;
    expect(edited.words.map((w: { text: string }) => w.text)).toEqual(
      "We walked along the canal and talked about our plans for the summer.".split(" "),
    );
    for (const k of [0, 1, 2, 3, 5, 6, 12]) expect(edited.words[k]).toEqual(old[k]);
    // "canal" where "river" was: between "the" and "and"
    expect(edited.words[4]).toEqual({ text: "canal", startTime: old[3]!.endTime, endTime: old[5]!.startTime });

    // the page's update_text sends segments without words: the first line's edit keeps its other words' times
    const page = (await read()).map(({ words: _w, ...s }: Segment) => s);
    page[0].text = "The weather was bright and very clear this morning.";
    const text = await post(alice, "/api/v1/audio/text/update_text", {
      fileId: rec.fileId,
      asrResult: JSON.stringify(page),
    });
    expect(text.body.status_code, text.body.status_msg).toBe(1);
    const [first, second] = await read();
    expect(first.words.map((w: { text: string }) => w.text)).toContain("very");
    expect(first.words[0]).toEqual(before[0]!.words![0]);
    expect(first.words.at(-1)).toEqual(before[0]!.words!.at(-1));
    expect(second.words).toEqual(edited.words);
  });
});
