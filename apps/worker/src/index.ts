export {
  type AsrEngine,
  type AsrEngineResolver,
  AsrEngineUnavailableError,
  configuredAsrEngines,
  engineReports,
} from "./engines/asr/index.ts";
export { runHousekeeping } from "./jobs/housekeeping.ts";
export { transcribe } from "./jobs/transcribe.ts";
export { startTranscriptionWorker, startWorkers, type WorkerContext } from "./workers.ts";
