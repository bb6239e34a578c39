export { EspeakEngine, espeakArguments, espeakMissing } from "./espeak.ts";
export {
  configuredTtsEngines,
  createTtsEngine,
  defaultTtsEngine,
  ENGINE_LANGUAGES,
  isTtsEngine,
  type TtsConfig,
  type TtsEngineResolver,
  ttsEngineMissing,
  ttsEngineReports,
} from "./factory.ts";
export { FestivalEngine, festivalMissing, festivalText } from "./festival.ts";
export { GptSovitsEngine, gptSovitsMissing } from "./gpt-sovits.ts";
export { OpenAiTtsEngine, openAiTtsMissing } from "./openai.ts";
export {
  type PcmAudio,
  type SynthesisOptions,
  type SynthesisResult,
  type TtsEngine,
  TtsEngineUnavailableError,
  type TtsLanguage,
} from "./types.ts";
