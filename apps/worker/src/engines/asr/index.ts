export {
  type AsrConfig,
  type AsrEngineResolver,
  configuredAsrEngines,
  createAsrEngine,
  engineFor,
  engineMissing,
  engineReports,
} from "./factory.ts";
export { MoonshineEngine, moonshineMissing } from "./moonshine.ts";
export { OpenAiAsrEngine, openAiMissing } from "./openai.ts";
export {
  type AsrEngine,
  type AsrEngineName,
  AsrEngineUnavailableError,
  type AsrLanguage,
  type AsrResult,
  type AsrSegment,
  type AsrWord,
  type AudioInput,
  type TranscribeOptions,
} from "./types.ts";
export { WhisperEngine, whisperMissing, whisperPrompt, ZH_PROMPT } from "./whisper.ts";
