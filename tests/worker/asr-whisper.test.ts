import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "@yuelu/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeToPcm } from "../../apps/worker/src/audio/pcm.ts";
import { autoIdentifier, engineReports } from "../../apps/worker/src/engines/asr/factory.ts";
import { AsrEngineUnavailableError } from "../../apps/worker/src/engines/asr/types.ts";
import { WhisperEngine, whisperMissing, whisperPrompt } from "../../apps/worker/src/engines/asr/whisper.ts";
import { writeRandomWhisperModel } from "../helpers/ggml-model.ts";
import { clearestEnglishVoice, synthesise } from "../helpers/speech.ts";

/** The binary `npm install` builds (scripts/build-whisper.mjs), unless WHISPER_CLI points elsewhere. */
const config = loadConfig({ ...process.env, DATA_DIR: "/nonexistent-yuelu-data", ASR_ENGINE_ZH: "whisper" });
const cli = config.WHISPER_CLI;

let dir: string;
let model: string;
let clip: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "yuelu-whisper-"));
  model = path.join(dir, "ggml-random.bin");
  await writeRandomWhisperModel(model, { seed: 7 });
  clip = await synthesise(
    "The weather was bright and clear this morning. We walked along the river.",
    path.join(dir, "speech.wav"),
    clearestEnglishVoice(),
    0.3,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function requireBinary() {
  if (!existsSync(cli)) {
    throw new Error(
      `whisper-cli was not built: no binary at ${cli}. \`npm ci\` builds it (scripts/build-whisper.mjs, needs cmake and a C++ compiler); run \`node scripts/build-whisper.mjs\` and read its warning.`,
    );
  }
}

describe("whisper.cpp engine (whisper-cli child process)", () => {
  it("has its binary: built at install by scripts/build-whisper.mjs", () => {
    requireBinary();
    expect(whisperMissing(cli, model)).toBeUndefined();
  });

  it("runs whisper-cli on a random-weight model with the real tensor layout: segments with timestamps", {
    timeout: 120_000,
  }, async () => {
    requireBinary();
    // Greedy, no temperature fallback: random weights decode garbage either way, this keeps it quick.
    const engine = new WhisperEngine({ cli, model, threads: 2, beamSize: 1, bestOf: 1, fallback: false });
    const pcm = await decodeToPcm(clip);
    const clipMs = (pcm.length / 16_000) * 1000;
    const progress: number[] = [];
    const result = await engine.transcribe(pcm.samples, {
      language: "zh",
      hotWords: ["悦录", "转写"],
      onProgress: (f) => progress.push(f),
    });
    // Text is garbage by design; what matters: segments came back through the JSON, with times.
    expect(result.segments.length).toBeGreaterThan(0);
    expect(result.language).toBe("zh");
    for (const s of result.segments) {
      expect(Number.isFinite(s.startMs) && Number.isFinite(s.endMs)).toBe(true);
      expect(s.startMs).toBeGreaterThanOrEqual(0);
      expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
      expect(s.endMs).toBeLessThanOrEqual(clipMs + 1);
      expect(s.text.length).toBeGreaterThan(0);
      for (const w of s.words ?? []) {
        expect(w.startMs).toBeGreaterThanOrEqual(0);
        expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
        expect(w.text).not.toMatch(/^\[_/);
      }
    }
    expect(result.segments.some((s) => (s.words?.length ?? 0) > 0)).toBe(true);
    expect(progress.at(-1)).toBe(1);
  });

  it('detects the language first for "auto" (one extra encoder pass)', { timeout: 120_000 }, async () => {
    requireBinary();
    const engine = new WhisperEngine({ cli, model, threads: 2, beamSize: 1, bestOf: 1, fallback: false });
    const result = await engine.transcribe(clip, { language: "auto" });
    expect(result.segments.length).toBeGreaterThan(0);
    expect(result.language).toMatch(/^[a-z]{2,3}$/);
  });

  it("prompts Chinese in simplified characters with the hot words", () => {
    expect(whisperPrompt("zh")).toBe("以下是普通话的句子。");
    expect(whisperPrompt("zh", ["悦录", " 转写 "])).toBe("以下是普通话的句子。相关词汇：悦录、转写。");
    expect(whisperPrompt("en", ["Yuelu", "BullMQ"])).toBe("Yuelu, BullMQ.");
    expect(whisperPrompt("en")).toBe("");
  });

  it("without a model it answers 70001 naming what to install, and never runs", async () => {
    const missing = path.join(dir, "no-such-model.bin");
    const engine = new WhisperEngine({ cli, model: missing });
    const error = await engine.transcribe(new Float32Array(16_000), { language: "zh" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AsrEngineUnavailableError);
    expect((error as AsrEngineUnavailableError).code).toBe(70001);
    expect((error as Error).message).toContain(`Whisper model not found at ${missing}`);
    expect((error as Error).message).toContain("npm run models:fetch -- base");
  });

  it("refuses a file that is not a ggml model, and a missing binary", async () => {
    const junk = path.join(dir, "junk.bin");
    await writeFile(junk, Buffer.alloc(4096, 1));
    expect(whisperMissing(cli, junk)).toMatchObject({
      problem: "model-missing",
      detail: expect.stringMatching(/not a whisper\.cpp ggml model/),
    });
    expect(whisperMissing(path.join(dir, "no-whisper-cli"), model)).toMatchObject({
      problem: "binary-missing",
      detail: expect.stringMatching(/whisper\.cpp is not built.*build-whisper/),
    });
  });

  it("reports per-language engines for the heartbeat (dictation/configuration): problems as keys, paths only in the log", () => {
    const base = { ...config, OPENAI_ASR_URL: undefined };
    const withModel = engineReports({ ...base, WHISPER_MODEL: model });
    expect(withModel).toEqual([
      { language: "zh", engine: "whisper", available: true },
      { language: "en", engine: "moonshine", available: true },
      { language: "auto", engine: "whisper", available: true },
    ]);
    const absent = path.join(dir, "absent.bin");
    const logged: string[] = [];
    const noModel = engineReports({ ...base, WHISPER_MODEL: absent }, undefined, (detail) => logged.push(detail));
    expect(noModel[0]).toEqual({ language: "zh", engine: "whisper", available: false, problem: "model-missing" });
    expect(JSON.stringify(noModel)).not.toContain(dir);
    expect(logged[0]).toContain(absent);
    expect(logged[0]).toMatch(/npm run models:fetch -- base.*WHISPER_MODEL/);
    // auto never falls back to moonshine (English only): without whisper's model it cannot identify languages
    expect(noModel[2]).toEqual({ language: "auto", engine: "whisper", available: false, problem: "model-missing" });
    const remote = {
      ...base,
      ASR_ENGINE_ZH: "openai-compatible" as const,
      ASR_ENGINE_EN: "openai-compatible" as const,
    };
    expect(autoIdentifier(remote)).toMatchObject({
      engine: "openai-compatible",
      missing: { problem: "server-missing" },
    });
    expect(engineReports(remote)[0]).toMatchObject({ available: false, problem: "server-missing" });
  });
});
