import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { FileStatus, StatusCode, transcriptionFailureMessage } from "@yuelu/contracts";
import { failTask } from "@yuelu/domain";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configuredAsrEngines, engineReports } from "../../apps/worker/src/engines/asr/factory.ts";
import { SherpaEngine } from "../../apps/worker/src/engines/asr/sherpa.ts";
import { AsrEngineUnavailableError } from "../../apps/worker/src/engines/asr/types.ts";
import { failureOf, transcribe } from "../../apps/worker/src/jobs/transcribe.ts";
import { SHERPA_MODELS } from "../../apps/worker/src/models/catalog.ts";
import { ModelProvisioner } from "../../apps/worker/src/models/provisioner.ts";
import { modelSources } from "../../apps/worker/src/models/sources.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { writeParaformerModel, writeSenseVoiceModel } from "../helpers/sherpa-models.ts";
import { balances, createChargedTask } from "../helpers/tasks.ts";
import { wordErrorRate } from "../helpers/wer.ts";

/**
 * The Chinese path through sherpa-onnx, in CI: SenseVoice- and Paraformer-shaped models written by
 * the tests (helpers/sherpa-models.ts) run through the product's real engine and job on real speech:
 * feature extraction, chunking at pauses, the decoders, token tables, language tags, Traditional →
 * Simplified, Chinese punctuation, 'auto', broken model files and a model fetched while running.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const UTTERANCES = ["今天下午三点开会。", "我们讨论明年的预算。", "请大家准时参加。"];
/** the pieces every utterance "says" (Traditional 氣, English words, full-width marks) */
const PIECES = ["今天", "天氣", "很", "好", "，", "▁hello", "▁world", "。"];
const SAID = "今天天气很好，hello world。";
const JFK_MP3 = path.join(root, "node_modules/nodejs-whisper/cpp/whisper.cpp/samples/jfk.mp3");
const JFK_TEXT =
  "And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.";

let dir: string;
let t: TestApp;
/** three Mandarin utterances with 2 s of silence between them (sherpa chunks at pauses > 1.5 s) */
let mandarin: string;
/** where each utterance lies in `mandarin` (ms) */
const spans: { startMs: number; endMs: number }[] = [];

function configFor(modelDir: string, extra: Record<string, string> = {}) {
  return loadConfig({
    ...process.env,
    DATA_DIR: path.join(dir, "data"),
    ASR_ENGINE_ZH: "sherpa",
    SHERPA_MODEL_DIR: modelDir,
    ASR_AUTO_FETCH: "false",
    LOG_LEVEL: "silent",
    ...extra,
  });
}

async function transcribeClip(modelDir: string, audioFile: string, language: "zh" | "en" | "auto", extra = {}) {
  const task = await createChargedTask(t.db, t.files, { audioFile, language });
  const outcome = await transcribe(task.taskId, {
    domain: t.domain,
    files: t.files,
    asr: configuredAsrEngines(configFor(modelDir, extra)),
  });
  const row = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
  return {
    task,
    outcome,
    segments: row.asrResult as {
      startTime: number;
      endTime: number;
      text: string;
      words?: { startTime: number; endTime: number; text: string }[];
    }[],
    language: row.language,
  };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-sherpa-"));
  t = await createTestApp();
  const parts: string[] = [];
  let at = 0;
  for (const [i, line] of UTTERANCES.entries()) {
    const raw = path.join(dir, `u${i}.raw.wav`);
    const wav = path.join(dir, `u${i}.wav`);
    await run("espeak-ng", ["-v", "cmn", "-s", "150", "-w", raw, line]);
    await run("sox", [raw, "-r", "16000", "-c", "1", "-b", "16", wav, "pad", "0.5", "2"]);
    const seconds = Number((await run("soxi", ["-D", wav])).stdout);
    spans.push({ startMs: at * 1000 + 500, endMs: (at + seconds - 2) * 1000 });
    at += seconds;
    parts.push(wav);
  }
  mandarin = path.join(dir, "mandarin.wav");
  await run("sox", [...parts, mandarin]);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe("the test models as sherpa-onnx's own loaders see them", () => {
  /** Loads a model in a child process with sherpa-onnx's debug output on; answers its output and exit. */
  async function loadInChild(kind: "senseVoice" | "paraformer", modelDir: string) {
    const script = `
      const sherpa = require("sherpa-onnx-node");
      const m = ${JSON.stringify(kind)} === "senseVoice"
        ? { senseVoice: { model: ${JSON.stringify(`${modelDir}/model.int8.onnx`)}, language: "auto", useInverseTextNormalization: 1 } }
        : { paraformer: { model: ${JSON.stringify(`${modelDir}/model.int8.onnx`)} } };
      sherpa.OfflineRecognizer.createAsync({
        featConfig: { sampleRate: 16000, featureDim: 80 },
        modelConfig: { ...m, tokens: ${JSON.stringify(`${modelDir}/tokens.txt`)}, numThreads: 1, provider: "cpu", debug: 1 },
        decodingMethod: "greedy_search",
      }).then(() => console.log("LOADED"));`;
    const out = await run(process.execPath, ["-e", script], { cwd: path.join(root, "apps/worker") }).then(
      (r) => ({ code: 0, text: r.stdout + r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, text: e.stdout + e.stderr }),
    );
    return out;
  }

  it("load the SenseVoice-shaped model with every metadata key it reads, no warning", async () => {
    const modelDir = path.join(dir, "loader-sv");
    await writeSenseVoiceModel(modelDir, { heard: "zh", pieces: PIECES });
    const { code, text } = await loadInChild("senseVoice", modelDir);
    expect(code).toBe(0);
    expect(text).toContain("LOADED");
    expect(text).toMatch(/lang_zh=3/);
    expect(text).not.toMatch(/does not exist|warning|Unknown/i);
  });

  it("load the Paraformer-shaped model the same way", async () => {
    const modelDir = path.join(dir, "loader-pf");
    await writeParaformerModel(modelDir, { tokens: ["今", "天"] });
    const { code, text } = await loadInChild("paraformer", modelDir);
    expect(code).toBe(0);
    expect(text).toContain("LOADED");
    expect(text).not.toMatch(/does not exist|warning/i);
  });

  it("sherpa-onnx alone ends the whole process on a model without its metadata (what the engine's check prevents)", async () => {
    const modelDir = path.join(dir, "loader-broken");
    await writeSenseVoiceModel(modelDir, { heard: "zh", pieces: PIECES, omit: ["lang_zh"] });
    const { text } = await loadInChild("senseVoice", modelDir);
    expect(text).toContain("'lang_zh' does not exist in the metadata");
    expect(text).not.toContain("LOADED");
  });
});

describe("SenseVoice through the product's engine and job", () => {
  let modelDir: string;
  beforeAll(async () => {
    modelDir = path.join(dir, "sense-voice-zh");
    await writeSenseVoiceModel(modelDir, { heard: "zh", pieces: PIECES });
  });

  it("decodes real speech in one chunk per utterance, keeping each chunk's time, in Simplified Chinese with Chinese punctuation", {
    timeout: 60_000,
  }, async () => {
    const { segments, language, outcome } = await transcribeClip(modelDir, mandarin, "zh");
    expect(outcome.status).toBe("done");
    expect(language).toBe("zh");
    expect(segments).toHaveLength(3);
    segments.forEach((s, i) => {
      expect(s.text).toBe(SAID);
      // the chunk of utterance i, give or take the VAD's padding
      expect(s.startTime).toBeGreaterThanOrEqual(spans[i]!.startMs - 400);
      expect(s.startTime).toBeLessThanOrEqual(spans[i]!.startMs + 400);
      expect(s.endTime).toBeGreaterThan(s.startTime);
      expect(s.endTime).toBeLessThanOrEqual(spans[i]!.endMs + 600);
      // token times: the pieces 120 ms apart from the chunk's start, in order, inside the segment; stored as the
      // text's words (issue 45): a Han character each (a token of two shares its 120 ms), punctuation on the word before
      const words = s.words ?? [];
      expect(words.map((w) => w.text)).toEqual(["今", "天", "天", "气", "很", "好，", "hello", "world。"]);
      expect(words.map((w) => w.startTime - s.startTime)).toEqual([0, 60, 120, 180, 240, 360, 600, 720]);
      for (const w of words) {
        expect(w.endTime).toBeGreaterThanOrEqual(w.startTime);
        expect(w.endTime).toBeLessThanOrEqual(s.endTime);
      }
    });
    const starts = segments.map((s) => s.startTime);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(segments[1]!.startTime).toBeGreaterThan(segments[0]!.endTime);
  });

  it("'auto' takes the language the model names: zh stays on the Chinese path", { timeout: 60_000 }, async () => {
    const { segments, language } = await transcribeClip(modelDir, mandarin, "auto");
    expect(language).toBe("zh");
    expect(segments.map((s) => s.text)).toEqual([SAID, SAID, SAID]);
  });

  it("'auto' hands speech the model names English to the English engine (real moonshine)", {
    timeout: 60_000,
  }, async () => {
    const englishModel = path.join(dir, "sense-voice-en");
    await writeSenseVoiceModel(englishModel, { heard: "en", pieces: PIECES });
    const { segments, language } = await transcribeClip(englishModel, JFK_MP3, "auto");
    expect(language).toBe("en");
    const text = segments.map((s) => s.text).join(" ");
    expect(text).not.toContain("今天");
    expect(wordErrorRate(JFK_TEXT, text).wer).toBeLessThanOrEqual(0.15);
  });
});

describe("Paraformer through the product's engine", () => {
  it("decodes each utterance to its tokens (ASCII pieces joined with @@), Simplified", {
    timeout: 60_000,
  }, async () => {
    const modelDir = path.join(dir, "paraformer");
    await writeParaformerModel(modelDir, { tokens: ["今", "天", "氣", "好", "hello@@", "world"] });
    const { segments, language } = await transcribeClip(modelDir, mandarin, "zh", { SHERPA_MODEL: "paraformer-zh" });
    expect(language).toBe("zh");
    expect(segments.map((s) => s.text)).toEqual([
      "今天气好 helloworld。",
      "今天气好 helloworld。",
      "今天气好 helloworld。",
    ]);
    segments.forEach((s, i) => {
      expect(Math.abs(s.startTime - spans[i]!.startMs)).toBeLessThanOrEqual(400);
    });
  });
});

describe("broken model files", () => {
  async function brokenModel(name: string, damage: (modelDir: string) => Promise<void>) {
    const modelDir = path.join(dir, `broken-${name}`);
    await writeSenseVoiceModel(modelDir, { heard: "zh", pieces: PIECES });
    await damage(modelDir);
    return modelDir;
  }
  const cases: [string, (d: string) => Promise<void>, RegExp][] = [
    [
      "truncated",
      async (d) => {
        const f = path.join(d, "model.int8.onnx");
        await writeFile(f, (await readFile(f)).subarray(0, 3000));
      },
      /cut short/,
    ],
    ["garbage", (d) => writeFile(path.join(d, "model.int8.onnx"), Buffer.alloc(5000, 0xff)), /not an ONNX model/],
    [
      "no metadata",
      (d) => writeSenseVoiceModel(d, { heard: "zh", pieces: PIECES, omit: ["lang_zh", "neg_mean"] }).then(() => {}),
      /no lang_zh, neg_mean/,
    ],
    [
      "foreign tokens",
      async (d) => {
        await writeFile(path.join(d, "tokens.txt"), "<blank> 0\n<s> 1\n");
      },
      /lists 2 tokens; the model's vocabulary has 21/,
    ],
  ];

  for (const [name, damage, detail] of cases) {
    it(`${name}: 70001-style refusal (model-invalid), reported in the heartbeat, and the process lives`, async () => {
      const modelDir = await brokenModel(name, damage);
      const engine = new SherpaEngine({ kind: "sense-voice", modelDir });
      const error = await engine.ready("zh").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AsrEngineUnavailableError);
      expect((error as AsrEngineUnavailableError).problem).toBe("model-invalid");
      expect((error as Error).message).toMatch(detail);
      expect(engineReports(configFor(modelDir)).find((r) => r.language === "zh")).toMatchObject({
        available: false,
        problem: "model-invalid",
      });
    });
  }

  it("a job on a broken model fails, is refunded, and tells the user in a plain sentence", {
    timeout: 30_000,
  }, async () => {
    const modelDir = await brokenModel("job", async (d) => {
      const f = path.join(d, "model.int8.onnx");
      await writeFile(f, (await readFile(f)).subarray(0, 1000));
    });
    const task = await createChargedTask(t.db, t.files, { audioFile: mandarin, language: "zh" });
    const error = await transcribe(task.taskId, {
      domain: t.domain,
      files: t.files,
      asr: configuredAsrEngines(configFor(modelDir)),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    expect(await failTask(t.domain, task.taskId, failureOf(error))).toBe(true);
    const row = await t.db.transcriptionTask.findUniqueOrThrow({ where: { id: task.taskId } });
    expect(row).toMatchObject({ status: FileStatus.Failed, errorCode: StatusCode.EngineUnavailable });
    expect(await balances(t.db, task)).toEqual({ cardRemaining: task.cardSeconds, daySeconds: 0 });
    expect(row.errorReason).toBe("engine-unavailable/model-invalid");
    expect(transcriptionFailureMessage(row.errorReason, "zh")).toBe(
      "语音识别暂未就绪，请稍后再试或联系站点管理员。所用时长已退还。",
    );
  });
});

describe("a model fetched while the worker runs", () => {
  let server: Server;
  let base = "";
  const served = new Map<string, Buffer>();
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = served.get(req.url ?? "");
      if (!body) return void res.writeHead(404).end();
      res.writeHead(200, { "content-length": body.length });
      res.end(req.method === "HEAD" ? undefined : body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("is used by the next job as soon as the provisioner has it, and a replaced one by the job after, without a restart", {
    timeout: 60_000,
  }, async () => {
    // what the hub would serve: a model that says 早上好
    const source = path.join(dir, "hub-model");
    await writeSenseVoiceModel(source, { heard: "zh", pieces: ["早上", "好", "。"] });
    const sha = async (f: string) =>
      createHash("sha256")
        .update(await readFile(path.join(source, f)))
        .digest("hex");
    for (const f of ["model.int8.onnx", "tokens.txt"]) served.set(`/models/${f}`, await readFile(path.join(source, f)));
    const modelDir = path.join(dir, "fetched");
    const provisioner = new ModelProvisioner({
      sources: modelSources({ ASR_MODEL_URL: `${base}/models` }),
      autoFetch: true,
      log: { info() {}, warn() {} },
    });
    const config = configFor(modelDir, { ASR_AUTO_FETCH: "true" });
    const asr = configuredAsrEngines(config, provisioner);

    // before: the model is missing, and the Chinese engine says so
    const before = await asr("zh")
      .ready?.("zh")
      .catch((e: unknown) => e);
    expect((before as AsrEngineUnavailableError).problem).toBe("model-missing");

    // the catalog's model, pinned to the files this test made (the real ones are pinned to the hub's)
    const senseVoice = SHERPA_MODELS.find((m) => m.id === "sense-voice")!;
    const files = await Promise.all(senseVoice.files.map(async (f) => ({ name: f.name, sha256: await sha(f.name) })));
    provisioner.ensure({ spec: { ...senseVoice, files }, dir: modelDir });
    await provisioner.settled();
    const task = await createChargedTask(t.db, t.files, { audioFile: mandarin, language: "zh" });
    await transcribe(task.taskId, { domain: t.domain, files: t.files, asr });
    const first = await t.db.transcript.findUniqueOrThrow({ where: { fileId: task.fileId } });
    expect((first.asrResult as { text: string }[]).map((s) => s.text)).toEqual(["早上好。", "早上好。", "早上好。"]);

    // a newer model moved into place (as the downloader does: written aside, then renamed)
    const newer = path.join(dir, "newer-model");
    await writeSenseVoiceModel(newer, { heard: "zh", pieces: ["晚上", "好", "。"] });
    for (const f of ["tokens.txt", "model.int8.onnx"]) {
      await copyFile(path.join(newer, f), path.join(modelDir, `${f}.part`));
      await rename(path.join(modelDir, `${f}.part`), path.join(modelDir, f));
    }
    const again = await createChargedTask(t.db, t.files, { audioFile: mandarin, language: "zh" });
    await transcribe(again.taskId, { domain: t.domain, files: t.files, asr });
    const second = await t.db.transcript.findUniqueOrThrow({ where: { fileId: again.fileId } });
    expect((second.asrResult as { text: string }[]).map((s) => s.text)).toEqual(["晚上好。", "晚上好。", "晚上好。"]);
    provisioner.stop();
  });
});
