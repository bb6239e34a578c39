import { readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeWav } from "../../apps/worker/src/audio/pcm.ts";
import { parseWav } from "../../apps/worker/src/audio/speech-audio.ts";
import { loudestWindow } from "../../apps/worker/src/engines/voice/gpt-sovits-clone.ts";
import { startVoiceWorker } from "../../apps/worker/src/voice-worker.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { FakeVoiceServer } from "../helpers/fake-voice-server.ts";
import { waitFor } from "../helpers/tasks.ts";
import { reportTtsEngines, startTestTtsWorker } from "../helpers/tts.ts";
import { jfk, repeat, wavBytes } from "../helpers/voice.ts";

/**
 * VOICE_CLONE_ENGINE=gpt-sovits (docs/voice.md "Configured engines") against a fake GPT-SoVITS api_v2
 * server started here (node:http, named as a fake). Like the real one it reads the reference clip from
 * the path it is given and refuses a clip outside 3–10 s with HTTP 400; it answers a tone of its own.
 * Everything else is real: the API, PostgreSQL, Redis, the voice and TTS workers, ffmpeg.
 */

const CLONE_HZ = 180;
function tone(seconds: number, rate = 32_000): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < out.length; i++) out[i] = 0.3 * Math.sin((2 * Math.PI * CLONE_HZ * i) / rate);
  return out;
}

/** what the fake read at each request's ref_audio_path: its length in seconds, or an error */
const refsRead: { path: string; seconds: number }[] = [];
const gptSovits = new FakeVoiceServer((got) => {
  const refPath = String(got.json?.ref_audio_path ?? "");
  const audio = parseWav(readFileSync(refPath));
  if (!audio) throw new Error(`not a WAV file: ${refPath}`);
  const seconds = audio.samples.length / audio.sampleRate;
  refsRead.push({ path: refPath, seconds });
  if (seconds < 3 || seconds > 10) return { message: "参考音频在3~10秒范围外，请更换！" };
  return encodeWav(tone(0.4 + 0.04 * [...String(got.json?.text ?? "")].length), 32_000);
});

let t: TestApp;
let refDir: string;
let stopWorkers: () => Promise<void>;
beforeAll(async () => {
  refDir = await mkdtemp(path.join(tmpdir(), "yuelu-gpt-sovits-refs-"));
  t = await createTestApp({
    VOICE_CLONE_URL: await gptSovits.start(),
    VOICE_CLONE_ENGINE: "gpt-sovits",
    VOICE_CLONE_REF_DIR: refDir,
  });
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
  gptSovits.stop();
  await rm(refDir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;

async function finishedVoice(who: SignedIn, id: number) {
  return waitFor(
    `voice ${id} to finish`,
    async () => {
      const [item] = (
        await t
          .http()
          .get(api(`/voice/my_voice/progress?voiceIds=${id}`))
          .set("Cookie", who.cookie)
      ).body.data;
      return item.status === 2 || item.status === -1 ? item : undefined;
    },
    90_000,
  );
}

describe("the reference clip", () => {
  it("is the loudest stretch of a long sample, within GPT-SoVITS's 3–10 s", () => {
    const rate = 16_000;
    const quietLoudQuiet = new Int16Array(30 * rate);
    for (let i = 12 * rate; i < 21 * rate; i++) quietLoudQuiet[i] = i % 2 ? 9000 : -9000;
    const clip = loudestWindow(quietLoudQuiet, rate, 9);
    expect(clip.length).toBe(9 * rate);
    expect(clip.every((v) => v !== 0)).toBe(true);
    const short = new Int16Array(5 * rate);
    expect(loudestWindow(short, rate, 9)).toBe(short);
  });
});

describe("a GPT-SoVITS api_v2 server as the clone engine", () => {
  it("clones a 22 s sample from a 9 s reference written where the server reads it; start_tts speaks through /tts", async () => {
    const who = await signIn(t);
    const created = await t
      .http()
      .post(api("/voice/my_voice/create"))
      .set("Cookie", who.cookie)
      .field("name", "肯尼迪")
      .field("language", "en")
      .attach("file", wavBytes(repeat(jfk(), 2)), "sample.wav");
    expect(created.body.status_code, created.body.status_msg).toBe(1);
    const voiceId = created.body.data.voiceId as number;
    expect(await finishedVoice(who, voiceId)).toMatchObject({ status: 2 });

    const [training] = gptSovits.received;
    expect(training).toMatchObject({ path: "/tts" });
    expect(training!.json).toMatchObject({
      text_lang: "en",
      prompt_lang: "auto",
      media_type: "wav",
      streaming_mode: false,
    });
    expect(String(training!.json!.text)).toMatch(/^Hello, this is a short passage/);
    // the clip: inside the shared folder, named by its content, 9 s of the sample
    expect(path.dirname(String(training!.json!.ref_audio_path))).toBe(refDir);
    expect(refsRead[0]!.seconds).toBeCloseTo(9, 1);
    const voice = await t.db.userVoice.findUniqueOrThrow({ where: { id: voiceId } });
    expect(voice.method).toBe("clone");

    const before = gptSovits.received.length;
    const started = await t
      .http()
      .post(api("/tts/start_tts"))
      .set("Cookie", who.cookie)
      .send({ text: "Good morning. How are you today?", myVoiceId: voiceId });
    expect(started.body.status_code, started.body.status_msg).toBe(1);
    const task = await waitFor(
      "tts task",
      async () => {
        const [item] = (
          await t
            .http()
            .get(api(`/tts/get_progress?taskIds=${started.body.data.taskId}`))
            .set("Cookie", who.cookie)
        ).body.data;
        return item.status === 2 || item.status === -1 ? item : undefined;
      },
      60_000,
    );
    expect(task).toMatchObject({ status: 2 });
    const spoken = gptSovits.received.slice(before);
    expect(spoken.map((r) => r.json?.text).sort()).toEqual(["Good morning.", "How are you today?"]);
    // the same clip every time: one file in the folder for this voice
    expect(new Set(spoken.map((r) => r.json?.ref_audio_path))).toEqual(new Set([training!.json!.ref_audio_path]));
    expect((await readdir(refDir)).filter((f) => f.endsWith(".wav"))).toHaveLength(1);
  }, 150_000);

  it("a sample whose reference is refused (HTTP 400) fails the voice at once with 40003", async () => {
    const who = await signIn(t);
    gptSovits.failNext.push(400);
    const created = await t
      .http()
      .post(api("/voice/my_voice/create"))
      .set("Cookie", who.cookie)
      .set("lang", "en")
      .field("name", "refused")
      .field("language", "en")
      .attach("file", wavBytes(repeat(jfk(), 2)), "sample.wav");
    const done = await finishedVoice(who, created.body.data.voiceId);
    expect(done).toMatchObject({ status: -1, errorCode: 40003 });
  }, 120_000);
});
