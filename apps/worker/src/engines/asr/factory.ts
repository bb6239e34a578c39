import type { EngineProblem } from "@yuelu/contracts";
import type { Config, EngineReport } from "@yuelu/runtime";
import { MoonshineEngine, moonshineMissing } from "./moonshine.ts";
import { OpenAiAsrEngine, openAiMissing } from "./openai.ts";
import type { AsrEngine, AsrEngineName, AsrLanguage } from "./types.ts";
import { WhisperEngine, whisperMissing } from "./whisper.ts";

export type AsrConfig = Pick<
  Config,
  | "ASR_ENGINE_ZH"
  | "ASR_ENGINE_EN"
  | "WHISPER_MODEL"
  | "WHISPER_CLI"
  | "ASR_THREADS"
  | "OPENAI_ASR_URL"
  | "OPENAI_ASR_KEY"
  | "OPENAI_ASR_MODEL"
>;

/** Why `engine` cannot transcribe `language` here — the problem users are told, the details for the log — or undefined. */
export function engineMissing(
  engine: AsrEngineName,
  language: AsrLanguage,
  config: AsrConfig,
): { problem: EngineProblem; detail: string } | undefined {
  switch (engine) {
    case "whisper":
      return whisperMissing(config.WHISPER_CLI, config.WHISPER_MODEL);
    case "moonshine": {
      if (language === "zh") {
        return {
          problem: "english-only",
          detail:
            "Moonshine recognises English only: for Chinese set ASR_ENGINE_ZH=whisper and install a model (`npm run models:fetch -- base`), or use an OpenAI-compatible server (OPENAI_ASR_URL)",
        };
      }
      const detail = moonshineMissing();
      return detail ? { problem: "model-missing", detail } : undefined;
    }
    case "openai-compatible": {
      const detail = openAiMissing(config.OPENAI_ASR_URL);
      return detail ? { problem: "server-missing", detail } : undefined;
    }
  }
}

/**
 * The engine configured for a language: ASR_ENGINE_ZH / ASR_ENGINE_EN; "auto" uses the
 * OpenAI-compatible server when both languages are set to it, else whisper when it has its binary
 * and model, else moonshine (which hears English only).
 */
export function engineFor(language: AsrLanguage, config: AsrConfig): AsrEngineName {
  if (language === "zh") return config.ASR_ENGINE_ZH;
  if (language === "en") return config.ASR_ENGINE_EN;
  if (config.ASR_ENGINE_ZH === "openai-compatible" && config.ASR_ENGINE_EN === "openai-compatible") {
    return "openai-compatible";
  }
  if (!engineMissing("whisper", "auto", config)) return "whisper";
  return "moonshine";
}

/**
 * What this worker can transcribe, per language: the heartbeat it reports (runtime/worker-registry.ts),
 * which the API reads for dictation/configuration and /readyz. `log` receives each problem's details.
 */
export function engineReports(
  config: AsrConfig,
  log?: (detail: string, language: AsrLanguage) => void,
): EngineReport[] {
  return (["zh", "en", "auto"] as const).map((language) => {
    const engine = engineFor(language, config);
    const missing = engineMissing(engine, language, config);
    if (!missing) return { language, engine, available: true };
    log?.(missing.detail, language);
    return { language, engine, available: false, problem: missing.problem };
  });
}

export function createAsrEngine(engine: AsrEngineName, config: AsrConfig): AsrEngine {
  switch (engine) {
    case "whisper":
      return new WhisperEngine({ cli: config.WHISPER_CLI, model: config.WHISPER_MODEL, threads: config.ASR_THREADS });
    case "moonshine":
      return new MoonshineEngine({ threads: config.ASR_THREADS });
    case "openai-compatible":
      return new OpenAiAsrEngine({
        url: config.OPENAI_ASR_URL,
        key: config.OPENAI_ASR_KEY,
        model: config.OPENAI_ASR_MODEL,
      });
  }
}

/** Picks the engine for a task's language. Jobs receive one of these (tests pass their own). */
export type AsrEngineResolver = (language: AsrLanguage) => AsrEngine;

/** The product resolver: engines from the config, each created once and reused (models stay loaded). */
export function configuredAsrEngines(config: AsrConfig): AsrEngineResolver {
  const made = new Map<AsrEngineName, AsrEngine>();
  return (language) => {
    const name = engineFor(language, config);
    let engine = made.get(name);
    if (!engine) {
      engine = createAsrEngine(name, config);
      made.set(name, engine);
    }
    return engine;
  };
}
