/**
 * A transcription worker in its own process, for the crash test: the product's worker and engines
 * (configuredAsrEngines from the environment) on the queue prefix and file root the test gives it.
 * Env: DATABASE_URL, REDIS_URL (empty: BullMQ's PostgreSQL backend), QUEUE_PREFIX, FILES_ROOT; a short lock so a killed worker's job is
 * taken back within seconds. Prints "ready" once it listens.
 */
import { createDb } from "@yuelu/db";
import { createQueueBackend, EventBus, loadConfig, localFileStore } from "@yuelu/runtime";
import { startTranscriptionWorker } from "../../apps/worker/src/workers.ts";

const env = (name: string) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};
const config = loadConfig({ ...process.env, NODE_ENV: "test", LOG_LEVEL: "silent", ASR_AUTO_FETCH: "false" });
const db = createDb(env("DATABASE_URL"), { poolSize: 3 });
const queues = createQueueBackend({
  redisUrl: process.env.REDIS_URL || undefined,
  databaseUrl: env("DATABASE_URL"),
  prefix: env("QUEUE_PREFIX"),
});
const files = localFileStore(env("FILES_ROOT"));
const log = {
  info: (obj: unknown, msg?: string) => console.log(JSON.stringify({ msg, obj })),
  warn: (obj: unknown, msg?: string) => console.log(JSON.stringify({ msg, obj })),
  error: (obj: unknown, msg?: string) =>
    console.error(JSON.stringify({ msg, obj: String((obj as { err?: unknown })?.err ?? obj) })),
};
const worker = startTranscriptionWorker(
  // No other process listens to this worker's events in the test: an in-process bus is enough.
  { db, config, queues, files, events: new EventBus(), log },
  { lockDuration: 2000, stalledInterval: 1000, maxStalledCount: 2, progressEveryMs: 100 },
);
await worker.waitUntilReady();
console.log("ready");

process.on("SIGTERM", async () => {
  await queues.close();
  await db.$disconnect();
  process.exit(0);
});
