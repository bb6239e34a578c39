import { TTS_ENGINES, TTS_LANGUAGES, type TtsEngineName, type TtsLanguage } from "@yuelu/contracts";
import { type Config, type EngineReport, installHint, tool } from "@yuelu/runtime";
import { EspeakEngine, espeakMissing } from "./espeak.ts";
import { FestivalEngine, festivalMissing } from "./festival.ts";
import { GptSovitsEngine } from "./gpt-sovits.ts";
import { OpenAiTtsEngine, openAiTtsMissing } from "./openai.ts";
import { type TtsEngine, TtsEngineUnavailableError, type TtsProblemReport } from "./types.ts";

export type TtsConfig = Pick<
  Config,
  | "TTS_ENGINE_ZH"
  | "TTS_ENGINE_EN"
  | "FFMPEG_PATH"
  | "ESPEAK_NG_BIN"
  | "FESTIVAL_BIN"
  | "OPENAI_TTS_URL"
  | "OPENAI_TTS_KEY"
  | "OPENAI_TTS_MODEL"
  | "GPTSOVITS_URL"
  | "GPTSOVITS_REF_AUDIO"
  | "GPTSOVITS_PROMPT_TEXT"
  | "GPTSOVITS_PROMPT_LANG"
>;

/** The languages each engine speaks. */
export const ENGINE_LANGUAGES: Record<TtsEngineName, readonly TtsLanguage[]> = {
  "espeak-ng": ["zh", "en"],
  festival: ["en"],
  "openai-compatible": ["zh", "en"],
  "gpt-sovits": ["zh", "en"],
};

export function isTtsEngine(name: string): name is TtsEngineName {
  return (TTS_ENGINES as readonly string[]).includes(name);
}

/**
 * Why `engine` cannot speak `language` on this worker — the problem users are told (naming what to
 * install or set), the details for the log — or undefined. Every engine needs ffmpeg to encode.
 */
export function ttsEngineMissing(
  engine: TtsEngineName,
  language: TtsLanguage,
  config: TtsConfig,
): TtsProblemReport | undefined {
  if (!ENGINE_LANGUAGES[engine].includes(language)) {
    return { problem: "english-only", detail: `${engine} cannot speak ${language}` };
  }
  if (!tool("ffmpeg", config.FFMPEG_PATH)) {
    return { problem: "ffmpeg-missing", detail: `ffmpeg was not found: ${installHint("ffmpeg", config.FFMPEG_PATH)}` };
  }
  switch (engine) {
    case "espeak-ng":
      return espeakMissing(config.ESPEAK_NG_BIN, language);
    case "festival":
      return festivalMissing(config.FESTIVAL_BIN, language);
    case "openai-compatible":
      return openAiTtsMissing(config.OPENAI_TTS_URL);
    case "gpt-sovits":
      // The reference clip may come with the voice (its params): checked when a job uses it.
      return config.GPTSOVITS_URL
        ? undefined
        : { problem: "gptsovits-missing", detail: "no GPT-SoVITS server is configured: set GPTSOVITS_URL" };
  }
}

/**
 * What this worker can speak: one report (kind "tts") per engine and language it speaks, for the
 * heartbeat (runtime/worker-registry.ts). The API marks each library voice available or says why not.
 * `log` receives each problem's details (with paths, for the operator).
 */
export function ttsEngineReports(
  config: TtsConfig,
  log?: (detail: string, engine: TtsEngineName, language: TtsLanguage) => void,
): EngineReport[] {
  const reports: EngineReport[] = [];
  for (const engine of TTS_ENGINES) {
    for (const language of TTS_LANGUAGES) {
      if (!ENGINE_LANGUAGES[engine].includes(language)) continue;
      const missing = ttsEngineMissing(engine, language, config);
      if (missing) log?.(missing.detail, engine, language);
      reports.push({
        kind: "tts",
        language,
        engine,
        available: !missing,
        ...(missing ? { problem: missing.problem } : {}),
      });
    }
  }
  return reports;
}

export function createTtsEngine(engine: TtsEngineName, config: TtsConfig): TtsEngine {
  switch (engine) {
    case "espeak-ng":
      return new EspeakEngine({ configured: config.ESPEAK_NG_BIN });
    case "festival":
      return new FestivalEngine({ configured: config.FESTIVAL_BIN });
    case "openai-compatible":
      return new OpenAiTtsEngine({
        url: config.OPENAI_TTS_URL,
        key: config.OPENAI_TTS_KEY,
        model: config.OPENAI_TTS_MODEL,
      });
    case "gpt-sovits":
      return new GptSovitsEngine({
        url: config.GPTSOVITS_URL,
        refAudio: config.GPTSOVITS_REF_AUDIO,
        promptText: config.GPTSOVITS_PROMPT_TEXT,
        promptLang: config.GPTSOVITS_PROMPT_LANG,
      });
  }
}

/** Picks the engine of a task's voice. Jobs receive one of these (tests pass their own). */
export type TtsEngineResolver = (engine: string) => TtsEngine;

/**
 * The product resolver: engines from the config, each made once; each first checks what the worker
 * reports (ffmpeg, the program, the voice data, the server URL), so a missing piece fails as such.
 */
export function configuredTtsEngines(config: TtsConfig): TtsEngineResolver {
  const made = new Map<TtsEngineName, TtsEngine>();
  return (name) => {
    if (!isTtsEngine(name)) throw new TtsEngineUnavailableError(name, `unknown TTS engine '${name}'`, "unknown");
    let engine = made.get(name);
    if (!engine) {
      engine = checked(createTtsEngine(name, config), config);
      made.set(name, engine);
    }
    return engine;
  };
}

function checked(engine: TtsEngine, config: TtsConfig): TtsEngine {
  const ready = async (language: TtsLanguage) => {
    const missing = ttsEngineMissing(engine.name, language, config);
    if (missing) throw new TtsEngineUnavailableError(engine.name, missing.detail, missing.problem);
    await engine.ready(language);
  };
  return {
    name: engine.name,
    languages: engine.languages,
    pitchAndPaceNative: engine.pitchAndPaceNative,
    ready,
    synthesize: async (texts, options) => {
      await ready(options.language);
      return engine.synthesize(texts, options);
    },
  };
}

/** The engine of each language's default voice (TTS_ENGINE_ZH / TTS_ENGINE_EN). */
export function defaultTtsEngine(language: TtsLanguage, config: TtsConfig): TtsEngineName {
  return language === "zh" ? config.TTS_ENGINE_ZH : config.TTS_ENGINE_EN;
}
