export {
  type AsrEngine,
  type AsrEngineResolver,
  AsrEngineUnavailableError,
  configuredAsrEngines,
  type EngineAvailability,
  engineAvailability,
} from "./engines/asr/index.ts";
export { runHousekeeping } from "./jobs/housekeeping.ts";
export { failStuckTranscriptions } from "./jobs/stuck-transcriptions.ts";
export { failTranscription, transcribe } from "./jobs/transcribe.ts";
export { startTranscriptionWorker, startWorkers, type WorkerContext } from "./workers.ts";
