export { type BackupReport, createBackup } from "./backup/backup.ts";
export { type BackupManifest, BackupManifestSchema } from "./backup/manifest.ts";
export { RestoreRefused, type RestoreReport, restoreBackup, verifyBackup } from "./backup/restore.ts";
export { type BackupSchedule, startBackupSchedule } from "./backup/schedule.ts";
export { type Config, ConfigError, loadConfig, MODEL_SOURCE_NAMES } from "./config.ts";
export { type DatabaseHandle, embeddedUrlFile, openDatabase } from "./database.ts";
export { type EmbeddedPostgres, startEmbeddedPostgres } from "./embedded-postgres.ts";
export { type EnqueuedKind, type EnqueueExtras, enqueue } from "./enqueue.ts";
export {
  type DomainEvent,
  EventBus,
  type EventPublisher,
  type EventTransport,
  postgresTransport,
  redisTransport,
  type TranscriptChange,
} from "./events.ts";
export { type MigrationReport, migrateFiles } from "./file-migration.ts";
export { assertFileKey, type FileStore, localFileStore, withTempDir } from "./file-store.ts";
export { HotSql } from "./hot-sql.ts";
export { clientNetwork, ipv4Of, ipv6Groups } from "./ip-address.ts";
export { isLoopbackHost, type LiveConfig, liveTokenOf, loadLiveConfig } from "./live-config.ts";
export { forgetLlmProbes, type LlmStatus, PROBE_CACHE_MS, PROBE_TIMEOUT_MS, probeLlm } from "./llm-probe.ts";
export { llmEndpoint, llmHost } from "./llm-url.ts";
export {
  bytesPerSecond,
  type DecodeOutcome,
  type DecodeStream,
  decodedSeconds,
  decodeStream,
  MediaDecodeError,
  PCM_RATE,
  type PcmShape,
  pcmDecodeArgs,
} from "./media-decode.ts";
export {
  addJobSource,
  countPayment,
  exposeQueues,
  JOB_OUTCOMES,
  type JobOutcome,
  type MetricsSnapshot,
  metrics,
  metricsAccess,
  metricsSnapshot,
  metricsText,
  observeHttp,
  observeJob,
  observeTranscription,
  type PaymentStatus,
  QUEUE_STATES,
} from "./metrics.ts";
export { openFileStore, openPlatform, type Platform } from "./platform.ts";
export { lowerOwnPriority } from "./priority.ts";
export {
  type FailedJob,
  failedJob,
  failedJobs,
  QUEUE_NAMES,
  type QueueDepth,
  queueDepths,
  removeFailedJob,
  retryAllFailed,
  retryFailedJob,
} from "./queue-admin.ts";
export { createQueueBackend, type QueueBackend, QueueName, queuePrefix } from "./queues.ts";
export { cookieSecret } from "./secrets.ts";
export { DEBIAN_GM_SOUNDFONT, findSoundfont, type Soundfont } from "./soundfont.ts";
export {
  canRun,
  describeTools,
  discoverTool,
  type FoundTool,
  findOnPath,
  forgetTools,
  installHint,
  localInstallHint,
  programPath,
  TOOL_NAMES,
  TOOL_SPECS,
  type ToolName,
  type ToolReport,
  type ToolSource,
  tool,
  toolReports,
} from "./tools.ts";
export { openUploadArea, type UploadArea } from "./upload-area.ts";
export {
  type EngineReport,
  HEARTBEAT_MS,
  keepHeartbeatFresh,
  type LiveWorker,
  liveWorkers,
  type ModelSourceFailure,
  startHeartbeat,
  sweepDeadWorkers,
  WORKER_STALE_MS,
} from "./worker-registry.ts";
