import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  FileStatus,
  TRANSCRIBE_JOB,
  transcriptionFailureMessage,
  transcriptionJobId,
  wrongLanguageReason,
} from "@yuelu/contracts";
import { QueueName } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import type { AsrEngine, AsrLanguage, AsrSegment } from "../../apps/worker/src/engines/asr/types.ts";
import { MoonshineLiveStream } from "../../apps/worker/src/live/moonshine-stream.ts";
import { englishEvidence, judgeEnglish } from "../../apps/worker/src/speech/language-check.ts";
import { startTranscriptionWorker } from "../../apps/worker/src/workers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { concatenate, festivalAvailable, synthesise } from "../helpers/speech.ts";
import { balances, createChargedTask, waitFor } from "../helpers/tasks.ts";

/**
 * Never another language's speech saved as a finished transcript (issue 41): Mandarin sent to the English
 * engine came back "complete" as invented English, and the user's time was charged. The check
 * (speech/language-check.ts) through the real job and the real English engine: Mandarin and Japanese fail,
 * refunded once, saying what was heard; English of several kinds is transcribed. Mandarin and Japanese are
 * eSpeak NG's (no real recording of either is installable here); bench/language-check.mjs measures more.
 */

const JFK_MP3 = path.resolve(import.meta.dirname, "../../node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const MANDARIN = [
  "今天下午三点我们在会议室讨论明年的预算。",
  "大家都同意先修理图书馆的屋顶，然后再买新的电脑。",
  "这个季度的销售额比去年同期增长了百分之十五。",
];
const JAPANESE =
  "きょうは ごご さんじに かいぎしつで らいねんの よさんに ついて はなしあいました。 みんな としょかんの やねを さきに なおすことに さんせい しました。";
const silent = { info() {}, warn() {}, error() {} };

let t: TestApp;
let dir: string;
let mandarin: string;
let japanese: string;
let english: string;
const moonshine = new MoonshineEngine();

function espeak(voice: string, text: string, out: string): string {
  execFileSync("espeak-ng", ["-v", voice, "-w", out, text]);
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-language-"));
  mandarin = await concatenate(
    MANDARIN.map((s, i) => espeak("cmn", s, path.join(dir, `zh-${i}.wav`))),
    path.join(dir, "mandarin.wav"),
  );
  japanese = espeak("ja", JAPANESE, path.join(dir, "japanese.wav"));
  english = await synthesise(
    "The committee met on Tuesday morning to discuss the budget for next year. After a long debate, they agreed to meet again in two weeks.",
    path.join(dir, "english.wav"),
    festivalAvailable() ? "festival-slt" : "espeak-male",
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const seg = (text: string, confidence: number, startMs = 0, endMs = 5000): AsrSegment => ({
  text,
  confidence,
  startMs,
  endMs,
});

describe("the verdict", () => {
  it("passes English the engine was sure of, numbers and all; refuses guessing, Mandarin's numbers and made-up repeats", () => {
    const verdict = (...segments: AsrSegment[]) => judgeEnglish(englishEvidence(segments)!);
    expect(verdict(seg("And so my fellow Americans, ask not what your country can do for you.", -0.13))).toMatchObject({
      english: "yes",
    });
    expect(
      verdict(seg("We met on March 5, 2024 at 10:30, and prices rose 3.5 percent this year.", -0.2)),
    ).toMatchObject({
      english: "yes",
    });
    expect(verdict(seg("2-3-4-5-G4-4-5-9-1-4-5-2-5-3-4-5-1-1-4-5", -0.55))).toMatchObject({
      english: "no",
      heard: "zh",
    });
    expect(
      verdict(seg("Yeah, four, yeah, five, yeah, four, the four, the five, nine, and one, four.", -0.46)),
    ).toMatchObject({
      english: "no",
      heard: "zh",
    });
    expect(
      verdict(
        seg(
          "The first thing that we can do is to make sure that we can do it. The first thing that we can do is to make sure.",
          -0.77,
        ),
      ),
    ).toMatchObject({ english: "no", heard: "other" });
    expect(verdict(seg("Kink free platform, i 104, yeah rantu how424", -1.1))).toMatchObject({ english: "no" });
    // too little to judge, or in between: passed
    expect(verdict(seg("10.", -1.5, 0, 800))).toMatchObject({ english: "unsure" });
    expect(verdict(seg("The committee may conclude the morning service of the market.", -0.6))).toMatchObject({
      english: "unsure",
    });
    // an engine that reports no confidence gives no evidence
    expect(englishEvidence([{ text: "hello there", startMs: 0, endMs: 4000 }])).toBeUndefined();
  });

  it("words the refusal in the user's language, naming what was heard and what to do", () => {
    expect(transcriptionFailureMessage(wrongLanguageReason("zh", "en"), "zh")).toBe(
      "这段录音听起来是中文，当前只能识别英文。所用时长已退还。",
    );
    expect(transcriptionFailureMessage(wrongLanguageReason("zh", "en"), "en")).toBe(
      "This recording sounds like Chinese; only English can be recognised here for now. The time it used was refunded.",
    );
    expect(transcriptionFailureMessage(wrongLanguageReason("other", "en"), "zh")).toBe(
      "这段录音听起来不是英文，当前只能识别英文。所用时长已退还。",
    );
    expect(transcriptionFailureMessage(wrongLanguageReason("en", "zh", true), "zh")).toBe(
      "这段录音听起来是英文，请选择“英文”后重新转写。所用时长已退还。",
    );
  });
});

/** A Chinese-only engine (as Paraformer is) that writes Chinese for whatever it hears: a test double. */
class FakeChineseOnlyEngine implements AsrEngine {
  readonly name = "fake-chinese-only";
  async transcribe(_audio: unknown, options: { regions?: readonly { startMs: number; endMs: number }[] }) {
    const regions = options.regions ?? [{ startMs: 0, endMs: 1000 }];
    return { segments: regions.map((r) => ({ startMs: r.startMs, endMs: r.endMs, text: "我们今天开会" })) };
  }
}

describe("the transcription job", () => {
  async function run(audioFile: string, language: "zh" | "en", engines?: (l: AsrLanguage) => AsrEngine) {
    const worker = startTranscriptionWorker(
      {
        db: t.db,
        config: t.config,
        queues: t.queues,
        files: t.files,
        events: t.events,
        log: silent,
        asr: engines ?? (() => moonshine),
      },
      { lockDuration: 20_000, stalledInterval: 5000 },
    );
    try {
      const task = await createChargedTask(t.db, t.files, { audioFile, language, speakerCount: 1 });
      await t.queues
        .queue(QueueName.Transcription)
        .add(
          TRANSCRIBE_JOB,
          { taskId: task.taskId },
          { jobId: transcriptionJobId(task.taskId), attempts: 3, backoff: { type: "fixed", delay: 100 } },
        );
      const row = await waitFor(
        "the task to end",
        async () => {
          const r = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
          return r.status === FileStatus.Failed || r.status === FileStatus.Complete ? r : undefined;
        },
        90_000,
      );
      return { task, row };
    } finally {
      await worker.close();
    }
  }

  it("Mandarin sent as English fails at once, refunded exactly once, and nothing is saved", {
    timeout: 120_000,
  }, async () => {
    const { task, row } = await run(mandarin, "en");
    expect(row).toMatchObject({ status: FileStatus.Failed, errorCode: 40001, attempts: 1 });
    expect(row.errorReason).toMatch(/^wrong-language\/zh:en/);
    expect(row.refundedAt).not.toBeNull();
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
    expect(await t.db.transcript.findUnique({ where: { fileId: task.fileId } })).toBeNull();
    expect(transcriptionFailureMessage(row.errorReason, "zh")).toMatch(/^这段录音听起来是中文/);
  });

  it("Japanese sent as English fails too, saying it does not sound like English", { timeout: 120_000 }, async () => {
    const { task, row } = await run(japanese, "en");
    expect(row.status).toBe(FileStatus.Failed);
    expect(row.errorReason).toMatch(/^wrong-language\/(other|zh):en/);
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
  });

  it.each([
    ["real human speech (JFK)", () => JFK_MP3],
    ["synthetic English", () => english],
  ])("English — %s — is transcribed and charged", { timeout: 120_000 }, async (_name, file) => {
    const { task, row } = await run(file(), "en");
    expect(row.status, row.errorReason ?? "").toBe(FileStatus.Complete);
    expect(await balances(t.db, task)).toEqual({
      cardRemaining: task.cardSeconds - task.seconds,
      daySeconds: task.seconds,
    });
  });

  it("English sent to a Chinese-only engine fails, suggesting English (its engine is ready here)", {
    timeout: 120_000,
  }, async () => {
    const chinese = new FakeChineseOnlyEngine();
    const { task, row } = await run(JFK_MP3, "zh", (l) => (l === "zh" ? chinese : moonshine));
    expect(row.status).toBe(FileStatus.Failed);
    expect(row.errorReason).toBe(wrongLanguageReason("en", "zh", true));
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
    // and Mandarin sent to it is transcribed as usual
    const { row: ok } = await run(mandarin, "zh", (l) => (l === "zh" ? chinese : moonshine));
    expect(ok.status).toBe(FileStatus.Complete);
  });
});

describe("English live captions", () => {
  it("stop on Mandarin: the stream reports the language heard instead of captioning it", {
    timeout: 60_000,
  }, async () => {
    const pcm = await decodeToPcm(mandarin);
    const samples = Float32Array.from(pcm.samples as Int16Array, (v) => v / 32768);
    const stream = new MoonshineLiveStream(moonshine);
    let heard: string | undefined;
    for (let at = 0; at < samples.length && !heard; at += 3200) {
      stream.push(samples.subarray(at, at + 3200));
      heard = (await stream.update(false)).wrongLanguage;
    }
    heard ??= (await stream.update(true)).wrongLanguage;
    expect(heard).toBe("zh");
  });

  it("go on with English", { timeout: 60_000 }, async () => {
    const pcm = await decodeToPcm(JFK_MP3);
    const samples = Float32Array.from(pcm.samples as Int16Array, (v) => v / 32768);
    const stream = new MoonshineLiveStream(moonshine);
    const finals: string[] = [];
    for (let at = 0; at < samples.length; at += 3200) {
      stream.push(samples.subarray(at, at + 3200));
      const update = await stream.update(false);
      expect(update.wrongLanguage).toBeUndefined();
      finals.push(...update.finals.map((f) => f.text));
    }
    const last = await stream.update(true);
    expect(last.wrongLanguage).toBeUndefined();
    finals.push(...last.finals.map((f) => f.text));
    expect(finals.join(" ")).toMatch(/country/i);
  });
});
