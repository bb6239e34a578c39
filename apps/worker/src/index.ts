export {
  type AsrEngine,
  type AsrEngineResolver,
  AsrEngineUnavailableError,
  configuredAsrEngines,
  engineReports,
} from "./engines/asr/index.ts";
export {
  configuredTtsEngines,
  type TtsEngine,
  type TtsEngineResolver,
  TtsEngineUnavailableError,
  ttsEngineReports,
} from "./engines/tts/index.ts";
export { runHousekeeping } from "./jobs/housekeeping.ts";
export { synthesizeSpeech } from "./jobs/synthesize-speech.ts";
export { transcribe } from "./jobs/transcribe.ts";
export { generateVoiceSample } from "./jobs/voice-sample.ts";
export { startTtsWorker, type TtsWorkerOptions } from "./tts-worker.ts";
export { startTranscriptionWorker, startWorkers, type WorkerContext } from "./workers.ts";
