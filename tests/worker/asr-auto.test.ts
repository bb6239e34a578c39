import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { FileStatus, StatusCode, transcriptionFailureMessage } from "@yuelu/contracts";
import { failTask } from "@yuelu/domain";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { AutoLanguageEngine } from "../../apps/worker/src/engines/asr/auto.ts";
import { configuredAsrEngines, engineReports } from "../../apps/worker/src/engines/asr/factory.ts";
import { MoonshineEngine } from "../../apps/worker/src/engines/asr/moonshine.ts";
import { SherpaEngine, senseVoiceLanguage, sherpaMissing } from "../../apps/worker/src/engines/asr/sherpa.ts";
import {
  type AsrEngine,
  AsrEngineUnavailableError,
  type AsrResult,
  type AudioInput,
  type TranscribeOptions,
} from "../../apps/worker/src/engines/asr/types.ts";
import { failureOf, transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { clearestEnglishVoice, synthesise } from "../helpers/speech.ts";
import { balances, createChargedTask } from "../helpers/tasks.ts";

/**
 * 'auto' identifies the spoken language before it picks an engine, and refuses rather than hand
 * Mandarin to the English-only engine (which would answer with invented English).
 */

const run = promisify(execFile);
const MANDARIN = "今天下午三点我们在会议室讨论明年的预算和招聘计划，请大家准时参加。";

let dir: string;
let mandarin: string;
let english: string;
let t: TestApp;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-auto-"));
  // A Mandarin clip from espeak-ng's cmn voice, 16 kHz mono.
  const raw = path.join(dir, "mandarin.raw.wav");
  await run("espeak-ng", ["-v", "cmn", "-s", "150", "-w", raw, MANDARIN]);
  mandarin = path.join(dir, "mandarin.wav");
  await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", mandarin, "pad", "0", "0.5"]);
  english = await synthesise(
    "Good morning, let us review the budget for next year.",
    path.join(dir, "en.wav"),
    clearestEnglishVoice(),
    0.5,
  );
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Test double: an engine that names a fixed language and records what it is asked (named as a fake). */
class FakeIdentifier implements AsrEngine {
  readonly name = "fake-identifier";
  transcribed: string[] = [];
  constructor(private readonly heard: string | undefined) {}
  async identifyLanguage(): Promise<string | undefined> {
    return this.heard;
  }
  async transcribe(_audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    this.transcribed.push(options.language);
    return { segments: [{ startMs: 0, endMs: 1000, text: "fake" }], language: this.heard };
  }
}

/** Test double: an engine for one language that records its calls (named as a fake). */
class FakeLanguageEngine implements AsrEngine {
  calls: string[] = [];
  constructor(readonly name: string) {}
  async transcribe(_audio: AudioInput, options: TranscribeOptions): Promise<AsrResult> {
    this.calls.push(options.language);
    return { segments: [{ startMs: 0, endMs: 1000, text: `${this.name} heard it` }] };
  }
}

describe("'auto' with the product's engines", () => {
  it("a fresh install (SenseVoice not downloaded yet) refuses a Mandarin clip on auto; it never reaches moonshine", async () => {
    const config = loadConfig({ ...process.env, DATA_DIR: path.join(dir, "fresh"), ASR_AUTO_FETCH: "false" });
    expect(config.ASR_ENGINE_ZH).toBe("sherpa");
    expect(engineReports(config).find((r) => r.language === "auto")).toEqual({
      language: "auto",
      engine: "sherpa",
      available: false,
      problem: "model-missing",
    });
    const error = await configuredAsrEngines(config)("auto")
      .transcribe(mandarin, { language: "auto" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    expect((error as AsrEngineUnavailableError).problem).toBe("model-missing");
  });

  it("an install without any engine that identifies languages reports and refuses 'auto' (no-language-id)", async () => {
    const config = loadConfig({
      ...process.env,
      DATA_DIR: path.join(dir, "remote"),
      ASR_ENGINE_ZH: "openai-compatible",
      ASR_ENGINE_EN: "moonshine",
      OPENAI_ASR_URL: "http://127.0.0.1:1",
    });
    expect(engineReports(config).at(-1)).toEqual({
      language: "auto",
      engine: "none",
      available: false,
      problem: "no-language-id",
    });
    const error = await configuredAsrEngines(config)("auto")
      .ready?.("auto")
      .catch((e: unknown) => e);
    expect((error as AsrEngineUnavailableError).problem).toBe("no-language-id");
  });

  it("the job on a Mandarin clip with language auto fails, is refunded and says why — no invented transcript", {
    timeout: 60_000,
  }, async () => {
    const config = loadConfig({ ...process.env, DATA_DIR: path.join(dir, "job"), ASR_AUTO_FETCH: "false" });
    const task = await createChargedTask(t.db, t.files, { audioFile: mandarin, language: "auto" });
    const error = await transcribe(task.taskId, {
      domain: t.domain,
      files: t.files,
      asr: configuredAsrEngines(config),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    // what the worker does with a final failure (workers.ts): fail the task, which refunds it
    expect(await failTask(t.domain, task.taskId, failureOf(error))).toBe(true);
    const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row).toMatchObject({ status: FileStatus.Failed, errorCode: StatusCode.EngineUnavailable });
    expect(row.refundedAt).not.toBeNull();
    expect(await t.db.transcript.findUnique({ where: { fileId: task.fileId } })).toBeNull();
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
    const message = transcriptionFailureMessage(row.errorReason, "en");
    // a plain sentence for the user (issue 30): no paths, variables or commands
    expect(message).toMatch(/speech recognition is not (ready|installed).*refunded/i);
    expect(message).not.toMatch(/\/|HF_ENDPOINT|npm run|`/);
  });
});

describe("AutoLanguageEngine", () => {
  it("hands Mandarin to the Chinese engine and never to the English one", async () => {
    const zh = new FakeLanguageEngine("fake-zh");
    const en = new FakeLanguageEngine("fake-en");
    const auto = new AutoLanguageEngine({
      identifier: () => new FakeIdentifier("zh"),
      engineFor: (language) => (language === "zh" ? zh : en),
    });
    const result = await auto.transcribe(mandarin, { language: "auto" });
    expect(zh.calls).toEqual(["zh"]);
    expect(en.calls).toEqual([]);
    expect(result.language).toBe("zh");
  });

  it("hands English to the English engine (real moonshine)", { timeout: 60_000 }, async () => {
    const zh = new FakeLanguageEngine("fake-zh");
    const auto = new AutoLanguageEngine({
      identifier: () => new FakeIdentifier("en"),
      engineFor: (language) => (language === "zh" ? zh : new MoonshineEngine()),
    });
    const result = await auto.transcribe(english, { language: "auto" });
    expect(zh.calls).toEqual([]);
    expect(result.language).toBe("en");
    expect(result.segments.map((s) => s.text).join(" ")).toMatch(/good morning/i);
  });

  it("refuses when the language cannot be told, and when its engine is not ready", async () => {
    const unsure = new AutoLanguageEngine({
      identifier: () => new FakeIdentifier(undefined),
      engineFor: () => new FakeLanguageEngine("never"),
    });
    const error = await unsure.transcribe(mandarin, { language: "auto" }).catch((e: unknown) => e);
    expect((error as AsrEngineUnavailableError).problem).toBe("no-language-id");

    const notReady: AsrEngine = {
      name: "fake-downloading",
      ready: async () => {
        throw new AsrEngineUnavailableError("fake-downloading", "50%", "model-downloading");
      },
      transcribe: async () => {
        throw new Error("must not be called");
      },
    };
    const waiting = new AutoLanguageEngine({ identifier: () => new FakeIdentifier("zh"), engineFor: () => notReady });
    const refused = await waiting.transcribe(mandarin, { language: "auto" }).catch((e: unknown) => e);
    expect((refused as AsrEngineUnavailableError).problem).toBe("model-downloading");
  });

  it("other languages stay with the multilingual identifier", async () => {
    const identifier = new FakeIdentifier("ja");
    const auto = new AutoLanguageEngine({
      identifier: () => identifier,
      engineFor: () => new FakeLanguageEngine("no"),
    });
    await auto.transcribe(mandarin, { language: "auto" });
    expect(identifier.transcribed).toEqual(["auto"]);
  });
});

describe("sherpa adapter", () => {
  it("loads its prebuilt addon here, and names the missing model (details for the log only)", () => {
    const missing = sherpaMissing({ modelDir: path.join(dir, "absent"), kind: "sense-voice" });
    expect(missing?.problem).toBe("model-missing");
    expect(missing?.detail).toMatch(/npm run models:fetch -- sense-voice/);
  });

  it("reads SenseVoice's language tags", () => {
    expect(senseVoiceLanguage("<|zh|>")).toBe("zh");
    expect(senseVoiceLanguage("<|en|>")).toBe("en");
    expect(senseVoiceLanguage("<|yue|>")).toBe("zh");
    expect(senseVoiceLanguage("<|nospeech|>")).toBeUndefined();
    expect(senseVoiceLanguage(undefined)).toBeUndefined();
  });

  it("refuses with 70001 when its model is not there", async () => {
    const engine = new SherpaEngine({ kind: "sense-voice", modelDir: path.join(dir, "absent") });
    const error = await engine.transcribe(new Float32Array(16_000), { language: "zh" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    expect((error as AsrEngineUnavailableError).code).toBe(70001);
  });

  const modelDir =
    process.env.SHERPA_TEST_MODEL_DIR ?? loadConfig({ ...process.env, SHERPA_MODEL: "sense-voice" }).SHERPA_MODEL_DIR;
  const hasModel = existsSync(path.join(modelDir, "model.int8.onnx")) && existsSync(path.join(modelDir, "tokens.txt"));
  if (!hasModel) {
    console.warn(
      `\n*** SKIPPED: the real SenseVoice run — no model at ${modelDir} (this machine cannot reach the model hub).\n` +
        "*** Run `npm run models:fetch -- sense-voice` (or set SHERPA_TEST_MODEL_DIR) where the internet is reachable.\n",
    );
  }
  it.skipIf(!hasModel)(
    "[needs the SenseVoice model] transcribes Mandarin in Chinese characters and names the language",
    {
      timeout: 120_000,
    },
    async () => {
      const engine = new SherpaEngine({ kind: "sense-voice", modelDir });
      const pcm = await decodeToPcm(mandarin);
      expect(await engine.identifyLanguage(pcm.samples, {})).toBe("zh");
      const result = await engine.transcribe(pcm.samples, { language: "zh" });
      expect(result.language).toBe("zh");
      expect(result.segments.map((s) => s.text).join("")).toMatch(/[\u4e00-\u9fff]{4,}/);
    },
  );
});
