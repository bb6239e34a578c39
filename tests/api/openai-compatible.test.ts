import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { businessDay } from "@yuelu/domain";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startWorkers } from "../../apps/worker/src/workers.ts";
import { createTestApp, type SignedIn, signIn, type TestApp } from "../helpers/app.ts";
import { waitFor } from "../helpers/tasks.ts";
import { festivalWithTimes, quantile, startErrors } from "../helpers/timed-speech.ts";

/**
 * The OpenAI-compatible endpoints (/v1, docs/integrators.md) driven by the official `openai` npm client
 * against a listening server, with real workers (moonshine for English, eSpeak NG / festival for
 * speech) on the test's PostgreSQL and Redis. This install has no Chinese speech model.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
/** Real speech (JFK's inaugural, 11 s) shipped inside an npm package. */
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const YEAR_MS = 365 * 86_400_000;
const silent = { info() {}, warn() {}, error() {} };

let t: TestApp;
let baseURL: string;
let workers: { stop(): Promise<void> };
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  workers = await startWorkers({
    db: t.db,
    config: t.config,
    queues: t.queues,
    files: t.files,
    events: t.events,
    log: silent,
  });
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-openai-"));
}, 120_000);
afterAll(async () => {
  await workers?.stop();
  // fetch (undici) may hold a connection it opened but never sent a request on: Node counts such a one as
  // busy, so closing the server would wait for its header timeout
  t?.app.server.closeAllConnections();
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const api = (p: string) => `/voice_yuelu${p}`;
const today = () => businessDay(new Date(), t.config.BUSINESS_TZ);

/** A signed-in user with 10 hours of card time (no welcome membership), and an API key of theirs. */
async function integrator(): Promise<SignedIn & { key: string; keyId: number; client: OpenAI }> {
  for (const ip of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) {
    await t.limiter.reset(`sms:ip:${ip}`);
    await t.limiter.reset(`login:ip:${ip}`);
  }
  const who = await signIn(t);
  await t.db.user.update({ where: { id: who.userId }, data: { memberEffectiveTime: null } });
  await t.db.timeCard.deleteMany({ where: { userId: who.userId } });
  await t.db.timeCard.create({
    data: {
      userId: who.userId,
      seconds: 36_000,
      remaining: 36_000,
      expiresAt: new Date(Date.now() + YEAR_MS),
      source: "purchase",
      refId: `openai-test-${who.userId}`,
    },
  });
  const made = await t.http().post(api("/api/v1/api_keys/create")).set("Cookie", who.cookie).send({ name: "openai" });
  expect(made.body.status_code, made.body.status_msg).toBe(1);
  const { key, id } = made.body.data as { key: string; id: number };
  return { ...who, key, keyId: id, client: new OpenAI({ apiKey: key, baseURL, maxRetries: 0 }) };
}

/** A /voice_yuelu call made with the API key, envelope unwrapped. */
async function yuelu(key: string, p: string) {
  const res = await t.http().get(api(p)).set("Authorization", `Bearer ${key}`);
  expect(res.body.status_code, res.body.status_msg).toBe(1);
  return res.body.data;
}

const usage = async (userId: number) => ({
  daySeconds: (await t.db.quotaDay.findUnique({ where: { userId_day: { userId, day: today() } } }))?.secondsUsed ?? 0,
  cardRemaining: (await t.db.timeCard.aggregate({ where: { userId }, _sum: { remaining: true } }))._sum.remaining ?? 0,
  records: await t.db.audioRecord.count({ where: { userId } }),
  tasks: await t.db.transcriptionTask.count({ where: { userId } }),
});

/** Our addition to verbose_json: the record the request made (fileId of the /voice_yuelu calls). */
const fileIdOf = (answer: object) => (answer as { yuelu_file_id: number }).yuelu_file_id;

/** What OpenAI's client threw: an APIError with the body's error fields. */
async function apiError(work: Promise<unknown>) {
  const error = await work.then(
    () => {
      throw new Error("expected the call to fail");
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe("POST /v1/audio/transcriptions with the openai client", () => {
  it("answers real speech in every response_format; each request is a charged record the web app lists", async () => {
    const who = await integrator();
    const before = await usage(who.userId);
    const file = () => createReadStream(JFK_MP3);

    const json = await who.client.audio.transcriptions.create({ file: file(), model: "whisper-1" });
    expect(json.text).toMatch(/ask not\W+what your country can do for you/i);
    expect((json as unknown as { usage: unknown }).usage).toEqual({ type: "duration", seconds: 11 });

    const text = await who.client.audio.transcriptions.create({
      file: file(),
      model: "whisper-1",
      language: "en",
      response_format: "text",
    });
    expect(typeof text).toBe("string");
    expect(text).toMatch(/fellow Americans/i);

    const srt = await who.client.audio.transcriptions.create({
      file: file(),
      model: "whisper-1",
      response_format: "srt",
    });
    expect(srt).toMatch(/^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n/);
    expect(srt).toMatch(/country/i);

    const vtt = await who.client.audio.transcriptions.create({
      file: file(),
      model: "moonshine",
      response_format: "vtt",
    });
    expect(vtt).toMatch(/^WEBVTT\n\n1\n00:00:\d\d\.\d{3} --> /);

    const verbose = await who.client.audio.transcriptions.create({
      file: file(),
      model: "whisper-1",
      response_format: "verbose_json",
      timestamp_granularities: ["word", "segment"],
    });
    expect(verbose).toMatchObject({ task: "transcribe", language: "english", duration: 11 });
    expect(verbose.segments?.length).toBeGreaterThan(0);
    const [first] = verbose.segments ?? [];
    expect(first).toMatchObject({
      id: 0,
      start: expect.any(Number),
      end: expect.any(Number),
      text: expect.any(String),
    });
    const words = verbose.words ?? [];
    expect(words.map((w) => w.word.toLowerCase())).toEqual(expect.arrayContaining(["ask", "not", "country"]));
    for (const [i, w] of words.entries()) {
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1]!.start);
    }
    // words only: no segments
    const wordsOnly = await who.client.audio.transcriptions.create({
      file: file(),
      model: "whisper-1",
      response_format: "verbose_json",
      timestamp_granularities: ["word"],
    });
    expect(wordsOnly.segments).toBeUndefined();
    expect(wordsOnly.words?.length).toBeGreaterThan(5);

    // six records in the user's library, transcribed, each charged its 11 seconds like a web upload
    const list = await yuelu(who.key, "/api/v3/audio/all_list?pageSize=50");
    expect(list.total).toBe(6);
    expect(
      list.records.every(
        (r: { fileName: string; fileStatus: number }) => r.fileName === "jfk.mp3" && r.fileStatus === 2,
      ),
    ).toBe(true);
    const after = await usage(who.userId);
    expect(after.daySeconds - before.daySeconds).toBe(6 * 11);
    expect(before.cardRemaining - after.cardRemaining).toBe(6 * 11);
    const text1 = await yuelu(who.key, `/api/v2/audio/text/get_text?fileId=${fileIdOf(verbose)}`);
    expect(text1.asrResult).toMatch(/country/i);
  }, 240_000);

  it("verbose_json words carry times measured from the audio: festival's known word times, median error ≤ 80 ms, p90 ≤ 200 ms (issue 45)", async () => {
    const who = await integrator();
    const spoken = await festivalWithTimes(
      [
        "The committee approved the budget after a long discussion about travel costs.",
        "Please send the report to every member of the team before Friday.",
        "My sister wants to visit the mountains, but I would rather stay near the sea.",
        "A quiet evening at home is sometimes the best way to rest.",
      ],
      path.join(dir, "timed.wav"),
    );
    const verbose = await who.client.audio.transcriptions.create({
      file: createReadStream(spoken.file),
      model: "whisper-1",
      language: "en",
      response_format: "verbose_json",
      timestamp_granularities: ["word"],
    });
    const heard = (verbose.words ?? []).map((w) => ({ text: w.word, startMs: w.start * 1000 }));
    const { errors, unmatched } = startErrors(spoken.words, heard);
    // the words heard right are nearly all of them, and each starts where festival said it
    expect(unmatched).toBeLessThanOrEqual(4);
    expect(quantile(errors, 0.5)).toBeLessThanOrEqual(80);
    expect(quantile(errors, 0.9)).toBeLessThanOrEqual(200);
    // the stored transcript holds the same times; the subtitles start at the first word, not the padding before it
    const stored = JSON.parse(
      (await yuelu(who.key, `/api/v2/audio/text/get_text?fileId=${fileIdOf(verbose)}&withWords=1`)).asrResult,
    );
    expect(stored[0].words[0]).toMatchObject({ text: "The", startTime: Math.round(verbose.words![0]!.start * 1000) });
    const vtt = await t
      .http()
      .get(api(`/api/v3/audio/text/export_vtt?fileId=${fileIdOf(verbose)}&words=1`))
      .set("Authorization", `Bearer ${who.key}`);
    expect(vtt.text).toMatch(
      /\n00:00:00\.\d{3} --> 00:00:\d\d\.\d{3}\n<v [^>]+>The <00:00:00\.\d{3}>committee <00:00:0\d\.\d{3}>approved /,
    );
  }, 120_000);

  it("takes the form's fields after the file, as curl -F sends them in any order; prompt words become hot words", async () => {
    const who = await integrator();
    const form = new FormData();
    form.append("model", "whisper-1");
    form.append("prompt", "Kennedy, inaugural address");
    form.append("response_format", "text");
    form.append("file", new Blob([await readFile(JFK_MP3)], { type: "audio/mpeg" }), "speech.mp3");
    const res = await fetch(`${baseURL}/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${who.key}` },
      body: form,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await res.text()).toMatch(/country/i);
    const hot = await yuelu(who.key, "/api/v1/hotWords");
    expect(hot.hotWords).toEqual(expect.arrayContaining(["Kennedy", "inaugural address"]));
  }, 120_000);

  it("Mandarin speech sent as English: a 422 on the file saying it sounds like Chinese, and the time refunded (issue 41)", {
    timeout: 120_000,
  }, async () => {
    const who = await integrator();
    const before = await usage(who.userId);
    const mandarin = path.join(dir, "mandarin.wav");
    await run("espeak-ng", [
      ...["-v", "cmn", "-w", mandarin],
      "今天下午三点我们在会议室讨论明年的预算。大家都同意先修理图书馆的屋顶，然后再买新的电脑。",
    ]);
    const error = await apiError(
      who.client.audio.transcriptions.create({ file: createReadStream(mandarin), model: "whisper-1", language: "en" }),
    );
    expect(error.status).toBe(422);
    expect(error.code).toBe("40001");
    expect(error.param).toBe("file");
    expect(error.message).toMatch(/sounds like Chinese/);
    expect(error.message).toMatch(/refunded/);
    // the record stays (as every /v1 upload does); no time was spent on it
    const after = await usage(who.userId);
    expect({ daySeconds: after.daySeconds, cardRemaining: after.cardRemaining }).toEqual({
      daySeconds: before.daySeconds,
      cardRemaining: before.cardRemaining,
    });
  });

  it("a Chinese request while the Chinese model is missing: a clear 503, and no record, task or charge", async () => {
    const who = await integrator();
    const before = await usage(who.userId);
    const error = await apiError(
      who.client.audio.transcriptions.create({ file: createReadStream(JFK_MP3), model: "whisper-1", language: "zh" }),
    );
    expect(error.status).toBe(503);
    expect(error.code).toBe("70001");
    expect(error.param).toBe("language");
    expect(error.message).toMatch(/Chinese recognition is not (ready|installed)/);
    expect(error.headers?.get("x-should-retry")).toBe("false");
    expect(await usage(who.userId)).toEqual(before);
  }, 60_000);

  it("refuses bad input in OpenAI's shape before keeping anything", async () => {
    const who = await integrator();
    const before = await usage(who.userId);
    const badFormat = await apiError(
      who.client.audio.transcriptions.create({
        file: createReadStream(JFK_MP3),
        model: "whisper-1",
        response_format: "xml" as never,
      }),
    );
    expect(badFormat.status).toBe(400);
    expect(badFormat.type).toBe("invalid_request_error");
    expect(badFormat.code).toBe("10002");
    expect(badFormat.param).toBe("response_format");
    expect(badFormat.message).toMatch(/response_format/);

    const unknownModel = await apiError(
      who.client.audio.transcriptions.create({ file: createReadStream(JFK_MP3), model: "whisper-9000" }),
    );
    expect(unknownModel.status).toBe(404);
    expect(unknownModel.param).toBe("model");

    const notAudio = await apiError(
      who.client.audio.transcriptions.create({
        file: new File([Buffer.from("MZ\x90\x00 not audio at all")], "notes.mp3"),
        model: "whisper-1",
      }),
    );
    expect(notAudio.status).toBe(400);
    expect(notAudio.code).toBe("20004");
    expect(await usage(who.userId)).toEqual(before);
  }, 60_000);

  it("an Idempotency-Key makes a retried request answer the same record, charged once", async () => {
    const who = await integrator();
    const before = await usage(who.userId);
    const send = () =>
      who.client.audio.transcriptions.create(
        { file: createReadStream(JFK_MP3), model: "whisper-1", response_format: "verbose_json" },
        { headers: { "Idempotency-Key": "nightly-2030-01-01-a" } },
      );
    const first = await send();
    const again = await send();
    expect(fileIdOf(again)).toBe(fileIdOf(first));
    expect(again.text).toBe(first.text);
    const after = await usage(who.userId);
    expect(after.records - before.records).toBe(1);
    expect(after.daySeconds - before.daySeconds).toBe(11);
  }, 120_000);

  it("a client that leaves while it waits does not stop the work: the record stays and is transcribed", async () => {
    const who = await integrator();
    const form = new FormData();
    form.append("file", new Blob([await readFile(JFK_MP3)], { type: "audio/mpeg" }), "leaving.mp3");
    form.append("model", "whisper-1");
    const leave = new AbortController();
    const pending = fetch(`${baseURL}/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${who.key}` },
      body: form,
      signal: leave.signal,
    }).catch((error: unknown) => error);
    const record = await waitFor("the record", () => t.db.audioRecord.findFirst({ where: { userId: who.userId } }));
    leave.abort();
    expect(await pending).toBeInstanceOf(Error);
    await waitFor(
      "the transcript",
      async () => (await t.db.audioRecord.findUnique({ where: { fileId: record.fileId } }))?.fileStatus === 2,
      90_000,
    );
    expect(await t.db.transcript.count({ where: { fileId: record.fileId } })).toBe(1);
  }, 120_000);

  it("takes a 1-hour recording (speech, then silence) like the web upload: 3600 s charged, transcript awaited", async () => {
    const who = await integrator();
    const hour = path.join(dir, "hour.mp3");
    await run("ffmpeg", [
      ...["-hide_banner", "-v", "error", "-y", "-i", JFK_MP3, "-af", "apad=whole_dur=3600"],
      ...["-ac", "1", "-ar", "16000", "-c:a", "libmp3lame", "-b:a", "16k", hour],
    ]);
    const before = await usage(who.userId);
    const answer = await who.client.audio.transcriptions.create({
      file: createReadStream(hour),
      model: "whisper-1",
      language: "en",
      response_format: "verbose_json",
    });
    expect(answer.duration).toBe(3600);
    expect(answer.text).toMatch(/country/i);
    const after = await usage(who.userId);
    expect(after.daySeconds - before.daySeconds).toBe(3600);
    expect(before.cardRemaining - after.cardRemaining).toBe(3600);
    const record = await yuelu(who.key, `/api/v3/audio/record/get_record_by_id?fileId=${fileIdOf(answer)}`);
    expect(record).toMatchObject({ timeLen: 3600, fileStatus: 2 });
  }, 600_000);
});

describe("POST /v1/audio/speech with the openai client", () => {
  it("speaks with a mapped OpenAI voice (alloy) in mp3 and wav; each is a charged work in the user's works", async () => {
    const who = await integrator();
    const input = "The weather is bright and clear this morning.";
    const mp3 = await who.client.audio.speech.create({ model: "tts-1", voice: "alloy", input });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    const mp3Bytes = Buffer.from(await mp3.arrayBuffer());
    expect(mp3Bytes.length).toBeGreaterThan(2000);
    expect(mp3Bytes.subarray(0, 3).toString() === "ID3" || mp3Bytes[0] === 0xff).toBe(true);

    const wav = await who.client.audio.speech.create({
      model: "tts-1",
      voice: "alloy",
      input,
      response_format: "wav",
      speed: 1.25,
    });
    expect(wav.headers.get("content-type")).toBe("audio/wav");
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("RIFF");

    const works = await yuelu(who.key, "/tts/task_list");
    expect(works.total).toBe(2);
    expect(works.list.map((w: { format: string }) => w.format).sort()).toEqual(["mp3", "wav"]);
    for (const work of works.list) expect(work).toMatchObject({ status: 2, language: "en", chars: [...input].length });
    const quota = await yuelu(who.key, "/tts/quota");
    expect(quota.charsUsedToday).toBe(2 * [...input].length);
  }, 120_000);

  it("converts to opus and flac, and takes library voices by name", async () => {
    const who = await integrator();
    const opus = await who.client.audio.speech.create({
      model: "tts-1",
      voice: "nova",
      input: "今天天气很好，我们一起去公园散步。",
      response_format: "opus",
    });
    expect(opus.headers.get("content-type")).toBe("audio/ogg");
    expect(
      Buffer.from(await opus.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("OggS");
    const flac = await who.client.audio.speech.create({
      model: "espeak-ng",
      voice: "Mike",
      input: "Hello there.",
      response_format: "flac",
    });
    expect(
      Buffer.from(await flac.arrayBuffer())
        .subarray(0, 4)
        .toString(),
    ).toBe("fLaC");
    const works = await yuelu(who.key, "/tts/task_list");
    expect(works.list.map((w: { voiceName: string }) => w.voiceName)).toEqual(expect.arrayContaining(["晓雪", "迈克"]));

    const unknownVoice = await apiError(
      who.client.audio.speech.create({ model: "tts-1", voice: "nobody", input: "Hi." }),
    );
    expect(unknownVoice).toMatchObject({ status: 400, param: "voice", code: "10002" });
  }, 120_000);
});

describe("GET /v1/models", () => {
  it("lists OpenAI's names and this install's engines in OpenAI's list shape", async () => {
    const who = await integrator();
    const ids: string[] = [];
    for await (const model of who.client.models.list()) {
      expect(model).toMatchObject({ object: "model", owned_by: "yuelu", created: expect.any(Number) });
      ids.push(model.id);
    }
    expect(ids).toEqual(expect.arrayContaining(["whisper-1", "moonshine", "tts-1", "espeak-ng", "festival"]));
    expect((await who.client.models.retrieve("moonshine")).id).toBe("moonshine");
    expect((await apiError(who.client.models.retrieve("gpt-5"))).status).toBe(404);
  });
});

describe("errors in OpenAI's shape", () => {
  it("no key, an unknown key and a revoked key → 401", async () => {
    const anonymous = await fetch(`${baseURL}/models`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await anonymous.json()).toEqual({
      error: {
        message: expect.stringMatching(/No API key provided/),
        type: "authentication_error",
        param: null,
        code: "10001",
      },
    });

    const stranger = new OpenAI({ apiKey: "yl_not-a-key-of-anyone-at-all-000000000000000", baseURL, maxRetries: 0 });
    const unknown = await apiError(stranger.models.list());
    expect(unknown.status).toBe(401);
    expect(unknown.message).toMatch(/Incorrect API key/);

    const who = await integrator();
    expect((await who.client.models.list()).data.length).toBeGreaterThan(0);
    const revoked = await t
      .http()
      .post(api("/api/v1/api_keys/revoke"))
      .set("Cookie", who.cookie)
      .send({ id: who.keyId });
    expect(revoked.body.status_code).toBe(1);
    const after = await apiError(who.client.models.list());
    expect(after.status).toBe(401);
    expect(after.code).toBe("10001");
  });

  it("a session cookie is the same caller; unknown /v1 paths answer 404 in OpenAI's shape; /voice_yuelu keeps its envelope", async () => {
    const who = await integrator();
    const models = await t.http().get("/v1/models").set("Cookie", who.cookie);
    expect(models.status).toBe(200);
    expect(models.body.object).toBe("list");
    const missing = await t.http().get("/v1/nothing-here").set("Authorization", `Bearer ${who.key}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ type: "invalid_request_error", code: "404" });
    const envelope = await t
      .http()
      .get(api("/api/v1/dictation/progress/get_progress?fileIds=x"))
      .set("Cookie", who.cookie);
    expect(envelope.status).toBe(200);
    expect(envelope.body).toMatchObject({ status_code: 10002, data: null });
  });

  it("a cookie call from another site's page is refused (403) in OpenAI's shape; a key call is not", async () => {
    const who = await integrator();
    const body = { model: "tts-1", voice: "alloy", input: "Hi." };
    const fromElsewhere = { Origin: "https://elsewhere.example", "Sec-Fetch-Site": "cross-site" };
    const byCookie = await t.http().post("/v1/audio/speech").set(fromElsewhere).set("Cookie", who.cookie).send(body);
    expect(byCookie.status).toBe(403);
    expect(byCookie.body.error).toMatchObject({ type: "permission_error", code: "10007" });
    const byKey = await t
      .http()
      .post("/v1/audio/speech")
      .set(fromElsewhere)
      .set("Authorization", `Bearer ${who.key}`)
      .send(body);
    expect(byKey.status).toBe(200);
  }, 60_000);

  it("the OpenAPI document lists the /v1 paths under the openai-compatible tag", async () => {
    const doc = (await t.http().get("/voice_yuelu/docs/json")).body;
    for (const p of ["/v1/audio/transcriptions", "/v1/audio/speech", "/v1/models"]) {
      const operation = Object.values(doc.paths[p] ?? {})[0] as { tags?: string[] } | undefined;
      expect(operation?.tags, p).toEqual(["openai-compatible"]);
    }
  });
});
