import type { Lang, TtsEngineName, TtsEngineProblem, TtsLanguage } from "@yuelu/contracts";
import { StatusCode, ttsProblemMessage } from "@yuelu/contracts";
import { AppError, type LibraryVoice } from "@yuelu/domain";
import type { Config, LiveWorker } from "@yuelu/runtime";

/** Which TTS engines this install offers and whether a running worker can speak with them now. */

/**
 * The engines whose voices the library lists here: the offline ones always (a worker says whether
 * they are installed), the remote ones only where their server is configured.
 */
export function listedEngines(config: Pick<Config, "OPENAI_TTS_URL" | "GPTSOVITS_URL">): TtsEngineName[] {
  return [
    "espeak-ng",
    "festival",
    ...(config.OPENAI_TTS_URL ? (["openai-compatible"] as const) : []),
    ...(config.GPTSOVITS_URL ? (["gpt-sovits"] as const) : []),
  ];
}

export type Availability = { available: true } | { available: false; problem: TtsEngineProblem };

/**
 * Whether some live worker reports `engine` ready for `language` (its heartbeat's tts reports); if
 * none does, why: the first worker's problem, or "no-worker" when no worker reports speech engines.
 */
export function availabilityOf(workers: LiveWorker[], engine: string, language: TtsLanguage): Availability {
  const reports = workers.flatMap((w) => w.ttsEngines.filter((e) => e.engine === engine && e.language === language));
  if (reports.some((r) => r.available)) return { available: true };
  const problem = reports[0]?.problem;
  return { available: false, problem: (problem ?? "no-worker") as TtsEngineProblem };
}

/** The engine of each language's default voice (TTS_ENGINE_ZH / TTS_ENGINE_EN). */
export function defaultEngineOf(language: TtsLanguage, config: Pick<Config, "TTS_ENGINE_ZH" | "TTS_ENGINE_EN">) {
  return language === "zh" ? config.TTS_ENGINE_ZH : config.TTS_ENGINE_EN;
}

/**
 * The default voice of each language among the listed ones: the first of its configured engine, else
 * its first — among the voices some worker can speak now when workers report their engines, so a
 * machine without festival (a bare install: eSpeak NG in WebAssembly only) still speaks English by
 * default instead of refusing.
 */
export function defaultVoices(
  voices: readonly LibraryVoice[],
  config: Pick<Config, "TTS_ENGINE_ZH" | "TTS_ENGINE_EN">,
  workers: LiveWorker[] = [],
): Record<TtsLanguage, LibraryVoice | undefined> {
  const reporting = workers.some((w) => w.ttsEngines.length > 0);
  const pick = (language: TtsLanguage) => {
    const own = voices.filter((v) => v.language === language);
    const first = (list: readonly LibraryVoice[]) =>
      list.find((v) => v.engine === defaultEngineOf(language, config)) ?? list[0];
    const speakable = reporting ? own.filter((v) => availabilityOf(workers, v.engine, v.language).available) : own;
    return first(speakable) ?? first(own);
  };
  return { zh: pick("zh"), en: pick("en") };
}

/** 70001 with the engine problem in the request's language (naming what the operator must install or set). */
export function engineUnavailable(problem: string, lang: Lang): AppError {
  return new AppError(StatusCode.EngineUnavailable, { detail: ttsProblemMessage(problem, lang) });
}
