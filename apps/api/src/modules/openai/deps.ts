import type { Db } from "@yuelu/db";
import type { DomainContext, EnqueueSynthesis, EnqueueTranscription } from "@yuelu/domain";
import type { Config, FileStore, QueueBackend } from "@yuelu/runtime";
import type { TaskWaits } from "./task-waits.ts";

/** What the /v1 services use: the app's own deps, its queue producers and the task waits. */
export interface OpenAiDeps {
  db: Db;
  files: FileStore;
  config: Config;
  queues: QueueBackend;
  domain: DomainContext;
  enqueueTranscription: EnqueueTranscription;
  enqueueSynthesis: EnqueueSynthesis;
  waits: TaskWaits;
}
