import path from "node:path";
import type { EngineProblem } from "@yuelu/contracts";
import { type Config, type EngineReport, installHint, tool } from "@yuelu/runtime";
import { SHERPA_MODELS, WHISPER_MODELS } from "../../models/catalog.ts";
import type { ModelProvisioner, WantedModel } from "../../models/provisioner.ts";
import { AutoLanguageEngine } from "./auto.ts";
import { MoonshineEngine, moonshineMissing } from "./moonshine.ts";
import { OpenAiAsrEngine, openAiMissing } from "./openai.ts";
import { SherpaEngine, sherpaMissing } from "./sherpa.ts";
import { type AsrEngine, type AsrEngineName, AsrEngineUnavailableError, type AsrLanguage } from "./types.ts";
import { WhisperEngine, whisperMissing } from "./whisper.ts";

export type AsrConfig = Pick<
  Config,
  | "ASR_ENGINE_ZH"
  | "ASR_ENGINE_EN"
  | "WHISPER_MODEL"
  | "WHISPER_CLI"
  | "SHERPA_MODEL"
  | "SHERPA_MODEL_DIR"
  | "ASR_THREADS"
  | "OPENAI_ASR_URL"
  | "OPENAI_ASR_KEY"
  | "OPENAI_ASR_MODEL"
  | "FFMPEG_PATH"
>;

export interface EngineProblemReport {
  problem: EngineProblem;
  /** for the log: paths and commands (never shown to users) */
  detail: string;
  /** percent downloaded, with "model-downloading" */
  progress?: number;
}

/** The model file(s) an engine needs and the folder they belong in, when it can be fetched. */
export function modelWanted(engine: AsrEngineName, config: AsrConfig): WantedModel | undefined {
  if (engine === "sherpa") {
    const spec = SHERPA_MODELS.find((m) => m.id === config.SHERPA_MODEL);
    return spec ? { spec, dir: config.SHERPA_MODEL_DIR } : undefined;
  }
  if (engine === "whisper") {
    // WHISPER_MODEL named like a published model (ggml-base.bin) can be fetched; a custom file cannot
    const id = /^ggml-(.+)\.bin$/.exec(path.basename(config.WHISPER_MODEL))?.[1];
    const spec = id ? WHISPER_MODELS.find((m) => m.id === id) : undefined;
    return spec ? { spec, dir: path.dirname(config.WHISPER_MODEL) } : undefined;
  }
  return undefined;
}

/** A whisper model that hears only English ("base.en") cannot identify a language or write Chinese. */
function whisperIsEnglishOnly(config: AsrConfig): boolean {
  return /\.en(\.|-|$)/.test(path.basename(config.WHISPER_MODEL, ".bin"));
}

/**
 * Why `engine` cannot transcribe `language` here — the problem users are told, the details for the
 * log — or undefined. A model being fetched reports "model-downloading" with its percentage, one
 * whose download failed "model-failed" (the provisioner retries it).
 */
export function engineMissing(
  engine: AsrEngineName,
  language: AsrLanguage,
  config: AsrConfig,
  provisioner?: ModelProvisioner,
): EngineProblemReport | undefined {
  const missing = installedProblem(engine, language, config);
  if (missing?.problem !== "model-missing") return missing;
  const want = modelWanted(engine, config);
  const state = want && provisioner?.stateOf(want);
  if (state?.state === "downloading") {
    return { problem: "model-downloading", progress: state.progress, detail: `${want!.spec.id}: ${state.progress}%` };
  }
  if (state?.state === "failed") return { problem: "model-failed", detail: `${want!.spec.id}: ${state.detail}` };
  return missing;
}

function installedProblem(
  engine: AsrEngineName,
  language: AsrLanguage,
  config: AsrConfig,
): EngineProblemReport | undefined {
  switch (engine) {
    case "sherpa":
      if (config.SHERPA_MODEL === "paraformer-zh" && language === "en") {
        return {
          problem: "unknown",
          detail: "Paraformer (paraformer-zh) is a Mandarin model: set ASR_ENGINE_EN to another engine",
        };
      }
      return sherpaMissing({ modelDir: config.SHERPA_MODEL_DIR, kind: config.SHERPA_MODEL });
    case "whisper":
      if (language === "zh" && whisperIsEnglishOnly(config)) {
        return {
          problem: "english-only",
          detail: `${config.WHISPER_MODEL} is an English-only whisper model: use a multilingual one (ggml-base.bin) for Chinese`,
        };
      }
      return whisperMissing(config.WHISPER_CLI, config.WHISPER_MODEL);
    case "moonshine": {
      if (language !== "en") {
        return {
          problem: "english-only",
          detail:
            "Moonshine recognises English only: for Chinese set ASR_ENGINE_ZH=sherpa (or whisper with a multilingual model), or use an OpenAI-compatible server (OPENAI_ASR_URL)",
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

/** The engine configured for a language (ASR_ENGINE_ZH / ASR_ENGINE_EN). */
export function engineFor(language: "zh" | "en", config: AsrConfig): AsrEngineName {
  return language === "zh" ? config.ASR_ENGINE_ZH : config.ASR_ENGINE_EN;
}

/**
 * Engines that can tell which language is spoken, best first: an OpenAI-compatible server serving
 * both languages, SenseVoice (sherpa), a multilingual whisper model — each only when this install
 * uses it. Moonshine never: it hears English only, and would invent English from Mandarin.
 */
export function languageIdentifiers(config: AsrConfig): AsrEngineName[] {
  const uses = (engine: AsrEngineName) => config.ASR_ENGINE_ZH === engine || config.ASR_ENGINE_EN === engine;
  const out: AsrEngineName[] = [];
  if (config.ASR_ENGINE_ZH === "openai-compatible" && config.ASR_ENGINE_EN === "openai-compatible") {
    out.push("openai-compatible");
  }
  if (uses("sherpa") && config.SHERPA_MODEL === "sense-voice") out.push("sherpa");
  if (uses("whisper") && !whisperIsEnglishOnly(config)) out.push("whisper");
  return out;
}

/** 'auto': the first language identifier that is ready, else why none is. */
export function autoIdentifier(
  config: AsrConfig,
  provisioner?: ModelProvisioner,
): { engine: AsrEngineName } | { engine: AsrEngineName | "none"; missing: EngineProblemReport } {
  const candidates = languageIdentifiers(config);
  const problems = candidates.map((engine) => ({
    engine,
    missing: engineMissing(engine, "auto", config, provisioner),
  }));
  const ready = problems.find((p) => !p.missing);
  if (ready) return { engine: ready.engine };
  const first = problems[0];
  if (first?.missing) return { engine: first.engine, missing: first.missing };
  return {
    engine: "none",
    missing: {
      problem: "no-language-id",
      detail:
        "no engine of this install identifies languages (sherpa with SenseVoice, a multilingual whisper model, or an OpenAI-compatible server for both languages): 'auto' is refused",
    },
  };
}

/**
 * What this worker can transcribe, per language: the heartbeat it reports (runtime/worker-registry.ts),
 * which the API reads for dictation/configuration, its refusals and /readyz. `log` receives each
 * problem's details.
 */
export function engineReports(
  config: AsrConfig,
  provisioner?: ModelProvisioner,
  log?: (detail: string, language: AsrLanguage) => void,
): EngineReport[] {
  const report = (language: AsrLanguage, engine: string, missing: EngineProblemReport | undefined): EngineReport => {
    if (!missing) return { language, engine, available: true };
    log?.(missing.detail, language);
    return {
      language,
      engine,
      available: false,
      problem: missing.problem,
      ...(missing.progress !== undefined ? { progress: missing.progress } : {}),
    };
  };
  // Every transcription starts by decoding the file with ffmpeg: without it, no language can be served.
  const noFfmpeg: EngineProblemReport | undefined = tool("ffmpeg", config.FFMPEG_PATH)
    ? undefined
    : { problem: "ffmpeg-missing", detail: `ffmpeg was not found: ${installHint("ffmpeg", config.FFMPEG_PATH)}` };
  const languages = (["zh", "en"] as const).map((language) => {
    const engine = engineFor(language, config);
    return report(language, engine, noFfmpeg ?? engineMissing(engine, language, config, provisioner));
  });
  const auto = autoIdentifier(config, provisioner);
  return [...languages, report("auto", auto.engine, noFfmpeg ?? ("missing" in auto ? auto.missing : undefined))];
}

/** The models this worker's engines need, to fetch when missing (the worker calls ensure on each). */
export function modelsWanted(config: AsrConfig): WantedModel[] {
  const wanted = new Map<string, WantedModel>();
  for (const language of ["zh", "en"] as const) {
    const want = modelWanted(engineFor(language, config), config);
    if (want) wanted.set(`${want.spec.id}@${want.dir}`, want);
  }
  return [...wanted.values()];
}

export function createAsrEngine(engine: AsrEngineName, config: AsrConfig): AsrEngine {
  switch (engine) {
    case "sherpa":
      return new SherpaEngine({
        kind: config.SHERPA_MODEL,
        modelDir: config.SHERPA_MODEL_DIR,
        threads: config.ASR_THREADS,
      });
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

/**
 * The product resolver: engines from the config, each created once and reused (models stay loaded);
 * each first checks what the worker reports (so a model still downloading fails as such, refunded);
 * 'auto' identifies the language with a capable engine, then hands the speech to that language's engine.
 */
export function configuredAsrEngines(config: AsrConfig, provisioner?: ModelProvisioner): AsrEngineResolver {
  const made = new Map<AsrEngineName, AsrEngine>();
  const engine = (name: AsrEngineName, language: AsrLanguage): AsrEngine => {
    let made1 = made.get(name);
    if (!made1) {
      made1 = createAsrEngine(name, config);
      made.set(name, made1);
    }
    return checked(made1, name, language, config, provisioner);
  };
  const resolve: AsrEngineResolver = (language) => {
    if (language !== "auto") return engine(engineFor(language, config), language);
    return new AutoLanguageEngine({
      identifier: () => {
        const auto = autoIdentifier(config, provisioner);
        if ("missing" in auto) {
          throw new AsrEngineUnavailableError(auto.engine, auto.missing.detail, auto.missing.problem);
        }
        return engine(auto.engine, "auto");
      },
      engineFor: (spoken) => engine(engineFor(spoken, config), spoken),
    });
  };
  return resolve;
}

/** `engine`, whose ready() first refuses when the worker's own report says it cannot serve `language`. */
function checked(
  engine: AsrEngine,
  name: AsrEngineName,
  language: AsrLanguage,
  config: AsrConfig,
  provisioner?: ModelProvisioner,
): AsrEngine {
  const ready = async (asked: AsrLanguage) => {
    const missing = engineMissing(name, asked, config, provisioner);
    if (missing) throw new AsrEngineUnavailableError(name, missing.detail, missing.problem);
    await engine.ready?.(asked);
  };
  return {
    name: engine.name,
    ready,
    transcribe: async (audio, options) => {
      await ready(options.language === "auto" ? language : options.language);
      return engine.transcribe(audio, options);
    },
    ...(engine.identifyLanguage ? { identifyLanguage: engine.identifyLanguage.bind(engine) } : {}),
  };
}
