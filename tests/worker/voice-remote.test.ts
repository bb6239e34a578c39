import { writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Test } from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm, encodeWav } from "../../apps/worker/src/audio/pcm.ts";
import { parseWav } from "../../apps/worker/src/audio/speech-audio.ts";
import { startVoiceWorker } from "../../apps/worker/src/voice-worker.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { FakeVoiceServer } from "../helpers/fake-voice-server.ts";
import { waitFor } from "../helpers/tasks.ts";
import { audioStats, reportTtsEngines, startTestTtsWorker } from "../helpers/tts.ts";
import { generatedSong, jfk, midiBytes, repeat, stereoWav, wavBytes } from "../helpers/voice.ts";

/**
 * The configured voice engines (docs/voice.md "Configured engines") against fake servers started inside
 * this test: a zero-shot clone server, an RVC-style converter and a vocal separator (node:http, named as
 * fakes) record what they receive and answer audio the test makes, each with a tone of its own so the
 * stored results show whose audio they hold. Everything else is real: the API, PostgreSQL, Redis, the
 * voice and TTS workers, ffmpeg and Rubber Band.
 */

/** A sine of `hz` (with `harmonics` overtones falling off), `seconds` long. */
function tone(hz: number, seconds: number, rate: number, amplitude = 0.3, harmonics = 1): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) {
    let v = 0;
    for (let h = 1; h <= harmonics; h++) v += Math.sin((2 * Math.PI * hz * h * i) / rate) / h;
    out[i] = amplitude * v * (harmonics > 1 ? 0.6 : 1);
  }
  return out;
}

/** The amplitude of `hz` in `samples` (Goertzel over 1-second blocks, the median block). */
function toneLevel(samples: Float32Array, rate: number, hz: number): number {
  const levels: number[] = [];
  const w = (2 * Math.PI * hz) / rate;
  for (let from = 0; from + rate <= samples.length; from += rate) {
    let re = 0;
    let im = 0;
    for (let i = 0; i < rate; i++) {
      re += samples[from + i]! * Math.cos(w * i);
      im -= samples[from + i]! * Math.sin(w * i);
    }
    levels.push((2 * Math.hypot(re, im)) / rate);
  }
  levels.sort((a, b) => a - b);
  return levels[levels.length >> 1] ?? 0;
}

/** A 16-bit stereo WAV's channels (the layout stereoWav and the worker write). */
function readStereo(wav: Buffer): { rate: number; channels: number; left: Float32Array; right: Float32Array } {
  const channels = wav.readUInt16LE(22);
  const rate = wav.readUInt32LE(24);
  const frames = Math.floor((wav.length - 44) / (2 * channels));
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = wav.readInt16LE(44 + i * 2 * channels) / 32768;
    right[i] = wav.readInt16LE(44 + i * 2 * channels + (channels - 1) * 2) / 32768;
  }
  return { rate, channels, left, right };
}

const floats = (wav: Buffer) => {
  const audio = parseWav(wav);
  if (!audio) throw new Error("not a WAV file");
  return { rate: audio.sampleRate, samples: Float32Array.from(audio.samples, (v) => v / 32768) };
};

/** the clone server's voice: a 200 Hz harmonic tone, longer for longer texts */
const CLONE_HZ = 200;
const cloneSeconds = (text: string) => 0.3 + 0.05 * [...text].length;
/** the converter's "voice": a 1250 Hz tone; the separator's accompaniment: 440 Hz */
const CONVERTED_HZ = 1250;
const ACCOMPANIMENT_HZ = 440;

const clone = new FakeVoiceServer((got) => {
  const text = String(got.json?.input ?? "");
  return encodeWav(tone(CLONE_HZ, cloneSeconds(text), 24_000, 0.3, 5), 24_000);
});
const converter = new FakeVoiceServer((got) => {
  const audio = floats(got.files.audio!);
  // at another rate than it was sent, as a real server may answer
  return encodeWav(tone(CONVERTED_HZ, audio.samples.length / audio.rate, 44_100), 44_100);
});
/** what the fake separator answered last as vocals (the converter must receive exactly these) */
let separatedVocals = new Float32Array(0);
const separator = new FakeVoiceServer((got) => {
  const song = readStereo(got.files.audio!);
  separatedVocals = Float32Array.from(song.left, (v, i) => (v + song.right[i]!) / 2);
  const seconds = song.left.length / song.rate;
  const accompaniment = tone(ACCOMPANIMENT_HZ, seconds, 22_050, 0.2);
  return {
    vocals: encodeWav(separatedVocals, song.rate).toString("base64"),
    accompaniment: stereoWav(accompaniment, accompaniment, 22_050).toString("base64"),
  };
});

let t: TestApp;
let dir: string;
let stopWorkers: () => Promise<void>;
beforeAll(async () => {
  const [cloneUrl, convertUrl, separateUrl] = await Promise.all([clone.start(), converter.start(), separator.start()]);
  t = await createTestApp({
    VOICE_CLONE_URL: cloneUrl,
    VOICE_CLONE_KEY: "clone-secret",
    VOICE_CLONE_MODEL: "zero-shot-1",
    VOICE_CONVERT_URL: convertUrl,
    VOICE_SEPARATE_URL: separateUrl,
    VOICE_SEPARATE_KEY: "separate-secret",
  });
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-voice-remote-"));
  const workerId = await reportTtsEngines(t.db, t.config);
  const log = { info() {}, warn() {}, error() {} };
  const voice = startVoiceWorker(
    { db: t.db, config: t.config, queues: t.queues, files: t.files, events: t.events, log },
    { progressEveryMs: 0 },
  );
  await voice.waitUntilReady();
  const tts = await startTestTtsWorker(t);
  stopWorkers = async () => {
    await voice.close();
    await tts.stop();
    await t.db.workerHeartbeat.deleteMany({ where: { workerId } });
  };
}, 60_000);
afterAll(async () => {
  await stopWorkers?.();
  await t?.close();
  for (const server of [clone, converter, separator]) server.stop();
  await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
const SAMPLE_SAMPLES = () => repeat(jfk(), 2); // 22 s of one real speaker
const SAMPLE = () => wavBytes(SAMPLE_SAMPLES());

async function user(): Promise<SignedIn> {
  for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) {
    await t.limiter.reset(`sms:ip:${ip}`);
    await t.limiter.reset(`login:ip:${ip}`);
  }
  const who = await signIn(t);
  await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: null } });
  return who;
}

const binary = (req: Test) =>
  req.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => done(null, Buffer.concat(chunks)));
  });

/** Downloads `url` as `who` and decodes it to 16 kHz mono (and keeps the file for audioStats). */
async function download(who: SignedIn, url: string, name: string) {
  const res = await binary(t.http().get(url).set("Cookie", who.cookie));
  expect(res.status).toBe(200);
  const file = path.join(dir, name);
  writeFileSync(file, res.body as Buffer);
  const pcm = await decodeToPcm(file);
  return { file, samples: pcm.slice(0, pcm.length) };
}

function createVoice(who: SignedIn, name = "我的克隆") {
  return t
    .http()
    .post(api("/voice/my_voice/create"))
    .set("Cookie", who.cookie)
    .field("name", name)
    .field("language", "en")
    .attach("file", SAMPLE(), "sample.wav");
}

const finished = (who: SignedIn, kind: "my_voice" | "works", id: number) =>
  waitFor(
    `${kind} ${id} to finish`,
    async () => {
      const param = kind === "my_voice" ? "voiceIds" : "workIds";
      const [item] = (
        await t
          .http()
          .get(api(`/voice/${kind}/progress?${param}=${id}`))
          .set("Cookie", who.cookie)
          .set("lang", "en")
      ).body.data;
      return item.status === 2 || item.status === -1 ? item : undefined;
    },
    90_000,
  );

const ttsFinished = (who: SignedIn, id: number) =>
  waitFor(
    `tts task ${id} to finish`,
    async () => {
      const [item] = (
        await t
          .http()
          .get(api(`/tts/get_progress?taskIds=${id}`))
          .set("Cookie", who.cookie)
      ).body.data;
      return item.status === 2 || item.status === -1 ? item : undefined;
    },
    60_000,
  );

/** The reference clip a request carried, checked to be the sample: 16 kHz mono WAV, the same speech. */
function expectSampleReference(wav: Buffer) {
  expect(wav.readUInt16LE(22)).toBe(1);
  expect(wav.readUInt32LE(24)).toBe(16_000);
  const got = floats(wav).samples;
  const sample = SAMPLE_SAMPLES();
  expect(got.length).toBe(sample.length);
  let worst = 0;
  for (let i = 0; i < sample.length; i++) worst = Math.max(worst, Math.abs(got[i]! - sample[i]!));
  // two 16-bit round trips (the upload, then the reference) move a loud sample by a step or two each
  expect(worst).toBeLessThanOrEqual(4 / 32768);
}

/** A ready cloned voice of `who` (the clone server's requests for it dropped from the record). */
async function clonedVoice(who: SignedIn): Promise<number> {
  const voiceId = (await createVoice(who)).body.data.voiceId;
  expect(await finished(who, "my_voice", voiceId)).toMatchObject({ status: 2 });
  return voiceId;
}

describe("capabilities", () => {
  it("say clone, remote separator and remote converter when the engines are configured", async () => {
    const caps = (await t.http().get(api("/voice/capabilities"))).body.data;
    expect(caps).toMatchObject({ myVoiceMethod: "clone", separator: "remote", converter: "remote" });
  });
});

describe("a configured clone server", () => {
  it("clones the sample: the preview and a start_tts task in the voice come from it, with the sample as reference", async () => {
    const who = await user();
    const before = clone.received.length;
    const created = (await createVoice(who, "JFK")).body.data;
    expect(await finished(who, "my_voice", created.voiceId)).toMatchObject({ status: 2 });

    // training: one request, the preview passage with the sample as base64 16 kHz WAV
    const training = clone.received.slice(before);
    expect(training).toHaveLength(1);
    const [asked] = training;
    expect(asked).toMatchObject({ path: "/v1/audio/speech", authorization: "Bearer clone-secret" });
    expect(asked!.json).toMatchObject({ model: "zero-shot-1", voice: "reference", response_format: "wav" });
    expect(String(asked!.json!.input)).toMatch(/^Hello, this is a short passage read in my own voice/);
    expectSampleReference(Buffer.from(String(asked!.json!.reference_audio), "base64"));

    const voice = (
      await t
        .http()
        .get(api(`/voice/my_voice/get?voiceId=${created.voiceId}`))
        .set("Cookie", who.cookie)
    ).body.data;
    expect(voice).toMatchObject({ method: "clone", baseVoiceName: "", status: 2 });
    expect(voice.profile.medianHz).toBeGreaterThan(80); // the sample is still measured
    const row = await t.db.userVoice.findUniqueOrThrow({ where: { id: created.voiceId } });
    expect(row).toMatchObject({ method: "clone", basePromptId: null });
    // the preview is the clone server's audio: its tone and its length
    const preview = await download(who, voice.previewUrl, "preview.mp3");
    const previewStats = await audioStats(preview.file);
    expect(previewStats.medianF0).toBeGreaterThan(CLONE_HZ * 0.95);
    expect(previewStats.medianF0).toBeLessThan(CLONE_HZ * 1.05);
    expect(previewStats.seconds).toBeCloseTo(cloneSeconds(String(asked!.json!.input)), 0);

    // start_tts in the voice: each sentence spoken by the clone server, nothing by the library voice
    const ttsBefore = clone.received.length;
    const text = "Hello there, my friend. This is my cloned voice.";
    const started = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", who.cookie)
      .send({ text, myVoiceId: created.voiceId });
    expect(started.body.status_code, started.body.status_msg).toBe(1);
    expect(started.body.data.voiceName).toBe("JFK");
    const task = await ttsFinished(who, started.body.data.taskId);
    expect(task).toMatchObject({ status: 2 });
    const spoken = clone.received.slice(ttsBefore);
    expect(spoken.map((r) => r.json?.input).sort()).toEqual(["Hello there, my friend.", "This is my cloned voice."]);
    for (const r of spoken) {
      expect(r.json).toMatchObject({ voice: "reference", speed: 1 });
      expectSampleReference(Buffer.from(String(r.json!.reference_audio), "base64"));
    }
    const stored = await t.db.ttsTask.findUniqueOrThrow({ where: { id: started.body.data.taskId } });
    expect(stored.userVoiceId).toBe(created.voiceId);
    expect(stored.promptId).not.toBeNull(); // the language's default voice fills the columns
    const audio = await download(who, task.audioUrl, "tts.mp3");
    const stats = await audioStats(audio.file);
    expect(stats.medianF0).toBeGreaterThan(CLONE_HZ * 0.95);
    expect(stats.medianF0).toBeLessThan(CLONE_HZ * 1.05);
    // two pieces of the fake's length, a sentence pause between them
    expect(stats.seconds).toBeGreaterThan(
      cloneSeconds("Hello there, my friend.") + cloneSeconds("This is my cloned voice."),
    );
  }, 120_000);

  it("sings in the cloned voice: each distinct syllable asked once, from this job", async () => {
    const who = await user();
    const voiceId = await clonedVoice(who);
    const notes = [60, 60, 67, 67, 69, 69, 67, 65, 65, 64].map((midi, i) => ({ midi, start: i, duration: 1 }));
    const before = clone.received.length;
    const res = await t
      .http()
      .post(api("/voice/sing/create"))
      .set("Cookie", who.cookie)
      .field("lyrics", "twinkle twinkle little star")
      .field("language", "en")
      .field("myVoiceId", String(voiceId))
      .attach("midi", midiBytes(notes, 120), "tune.mid");
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const syllables = res.body.data.notes.map((n: { syllable: string }) => n.syllable);
    expect(syllables).toEqual(["twin", "kle", "twin", "kle", "lit", "tle", "star", "la", "la", "la"]);
    expect(await finished(who, "works", res.body.data.workId)).toMatchObject({ status: 2 });
    const asked = clone.received.slice(before).map((r) => r.json?.input);
    expect([...asked].sort()).toEqual(["kle", "la", "lit", "star", "tle", "twin"]);
    for (const r of clone.received.slice(before)) {
      expectSampleReference(Buffer.from(String(r.json!.reference_audio), "base64"));
    }
  }, 120_000);

  it("a 4xx fails the voice at once (40003, remote-failed) and gives the day's unit back", async () => {
    const who = await user();
    const before = clone.received.length;
    clone.failNext.push(422);
    const created = (await createVoice(who)).body.data;
    const failed = await finished(who, "my_voice", created.voiceId);
    expect(failed).toMatchObject({ status: -1, errorCode: 40003, errorMsg: "the external voice service failed" });
    expect(clone.received.length - before).toBe(1); // not retried
    const row = await t.db.userVoice.findUniqueOrThrow({ where: { id: created.voiceId } });
    expect(row.errorReason).toBe("remote-failed");
    expect(row.refundedAt).not.toBeNull();
    expect((await t.http().get(api("/voice/quota")).set("Cookie", who.cookie)).body.data.used).toBe(0);
  }, 60_000);

  it("a 5xx is retried: the second attempt makes the voice", async () => {
    const who = await user();
    const before = clone.received.length;
    clone.failNext.push(503);
    const created = (await createVoice(who)).body.data;
    expect(await finished(who, "my_voice", created.voiceId)).toMatchObject({ status: 2 });
    expect(clone.received.length - before).toBe(2);
    const row = await t.db.userVoice.findUniqueOrThrow({ where: { id: created.voiceId } });
    expect(row).toMatchObject({ method: "clone", attempts: 2, refundedAt: null });
  }, 90_000);

  it("a 4xx fails a start_tts task in the voice at once and refunds its characters", async () => {
    const who = await user();
    const voiceId = await clonedVoice(who);
    const before = clone.received.length;
    clone.failNext.push(400);
    const started = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", who.cookie)
      .send({ text: "One sentence only.", myVoiceId: voiceId });
    expect(started.body.status_code).toBe(1);
    const task = await ttsFinished(who, started.body.data.taskId);
    expect(task.status).toBe(-1);
    expect(clone.received.length - before).toBe(1);
    const row = await t.db.ttsTask.findUniqueOrThrow({ where: { id: started.body.data.taskId } });
    expect(row.errorCode).toBe(40002);
    expect(row.refundedAt).not.toBeNull();
  }, 90_000);
});

describe("a configured separator and converter", () => {
  it("convert: the song goes to the separator, its vocals to the converter, and their answers make the result", async () => {
    const who = await user();
    const voiceId = await clonedVoice(who);
    const song = generatedSong(6);
    const [sepBefore, convBefore] = [separator.received.length, converter.received.length];
    const res = await t
      .http()
      .post(api("/voice/convert/create"))
      .set("Cookie", who.cookie)
      .field("semitones", "-3")
      .field("myVoiceId", String(voiceId))
      .attach("file", stereoWav(song.left, song.right, 32_000), "song.wav");
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const workId = res.body.data.workId;
    expect(await finished(who, "works", workId)).toMatchObject({ status: 2 });

    // the separator got the song: stereo, 6 s at 32 kHz, the same audio
    const [toSeparate] = separator.received.slice(sepBefore);
    expect(toSeparate).toMatchObject({ path: "/separate", authorization: "Bearer separate-secret" });
    const sent = readStereo(toSeparate!.files.audio!);
    expect(sent).toMatchObject({ channels: 2, rate: 32_000 });
    expect(sent.left.length).toBe(song.left.length);
    expect(Math.abs(sent.left[1000]! - song.left[1000]!)).toBeLessThan(1e-3);
    // the converter got the separator's vocals, the semitones and the voice's sample
    const [toConvert] = converter.received.slice(convBefore);
    expect(toConvert).toMatchObject({ path: "/convert", fields: { semitones: "-3" } });
    expect(toConvert!.authorization).toBeUndefined();
    const vocals = floats(toConvert!.files.audio!);
    expect(vocals.rate).toBe(32_000);
    expect(vocals.samples.length).toBe(separatedVocals.length);
    let worst = 0;
    for (let i = 0; i < vocals.samples.length; i++) {
      worst = Math.max(worst, Math.abs(vocals.samples[i]! - separatedVocals[i]!));
    }
    expect(worst).toBeLessThan(3 / 32768);
    expectSampleReference(toConvert!.files.reference!);

    // the result: the song's length, the converter's tone over the separator's accompaniment moved 3 down
    const view = (await t.http().get(api("/voice/works/list?kind=convert")).set("Cookie", who.cookie)).body.data
      .list[0];
    expect(view.workId).toBe(workId);
    expect(Math.abs(view.durationMs - 6000)).toBeLessThan(120);
    const result = await download(who, view.downloadUrl, "converted.mp3");
    expect(Math.abs(result.samples.length / 16_000 - 6)).toBeLessThan(0.12);
    const level = (hz: number) => toneLevel(result.samples, 16_000, hz);
    const moved = ACCOMPANIMENT_HZ * 2 ** (-3 / 12);
    expect(level(CONVERTED_HZ)).toBeGreaterThan(0.1);
    expect(level(moved)).toBeGreaterThan(0.05);
    expect(level(CONVERTED_HZ)).toBeGreaterThan(10 * level(1000));
    expect(level(moved)).toBeGreaterThan(5 * level(ACCOMPANIMENT_HZ));
    // the vocals part is the converter's answer
    const stem = await download(who, api(`/voice/works/file?workId=${workId}&part=vocals`), "vocals.mp3");
    expect(toneLevel(stem.samples, 16_000, CONVERTED_HZ)).toBeGreaterThan(0.1);
  }, 120_000);

  it("a converter's 4xx fails the work (40004, remote-failed); a library voice's reference is its own speech", async () => {
    const who = await user();
    const song = generatedSong(3);
    const before = converter.received.length;
    converter.failNext.push(400);
    const res = await t
      .http()
      .post(api("/voice/convert/create"))
      .set("Cookie", who.cookie)
      .field("semitones", "2")
      .attach("file", stereoWav(song.left, song.right, 32_000), "song.wav");
    expect(res.body.status_code, res.body.status_msg).toBe(1);
    const failed = await finished(who, "works", res.body.data.workId);
    expect(failed).toMatchObject({ status: -1, errorCode: 40004, errorMsg: "the external voice service failed" });
    const asked = converter.received.slice(before);
    expect(asked).toHaveLength(1);
    const reference = floats(asked[0]!.files.reference!);
    expect(reference.rate).toBe(16_000);
    expect(reference.samples.length / 16_000).toBeGreaterThan(2); // the library voice read its passage
    const row = await t.db.voiceWork.findUniqueOrThrow({ where: { id: res.body.data.workId } });
    expect(row.errorReason).toBe("remote-failed");
    expect(row.refundedAt).not.toBeNull();
  }, 90_000);
});
