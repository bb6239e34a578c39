// The system commands of `npm run admin` (scripts/admin.ts): what engines and models this install
// has (and what to install for the missing ones), and retrying failed jobs. The console shows the same
// (GET /voice_yuelu/admin/system/engines, POST /voice_yuelu/admin/system/jobs/retry-failed).
import type { Db } from "@yuelu/db";
import { auditJobAction, CLI_ACTOR, engineOverview, MODELS_LIST_COMMAND } from "@yuelu/domain";
import {
  type Config,
  createQueueBackend,
  liveWorkers,
  probeLlm,
  QUEUE_NAMES,
  type QueueName,
  queuePrefix,
  retryAllFailed,
  toolReports,
} from "@yuelu/runtime";

function fail(message: string): never {
  console.error(`admin: ${message}`);
  process.exit(2);
}

/**
 * `engines`: the live workers' engines and tools (their heartbeats), this machine's tools, the speech
 * models the configured engines need and whether they are here, and what to install for each missing thing.
 */
export async function enginesCommand(db: Db, config: Config): Promise<void> {
  const overview = engineOverview(await liveWorkers(db), toolReports(undefined, config), await probeLlm(config));
  if (overview.workers.length === 0) console.log("No worker is running (none sent a heartbeat in the last 90 s).");
  for (const w of overview.workers) {
    console.log(`worker ${w.workerId} on ${w.hostname} (pid ${w.pid}), seen ${w.seenAt}`);
    for (const e of w.engines) {
      const state = e.available ? "ready" : `NOT READY (${e.problem}${e.progress !== null ? ` ${e.progress}%` : ""})`;
      const from = e.modelSource ? ` (model from ${e.modelSource})` : "";
      console.log(`  ${e.kind} ${e.language.padEnd(4)} ${e.engine.padEnd(18)} ${state}${from}`);
      // why each model source failed (the worker tries them in turn: docs/chinese-speech.md)
      for (const f of e.sourceFailures) console.log(`      ${f.source} (${f.file}): ${f.reason}: ${f.detail}`);
    }
    for (const t of w.tools)
      console.log(`  tool ${t.name.padEnd(10)} ${t.available ? `${t.source} ${t.path}` : "missing"}`);
  }
  console.log("this machine:");
  for (const t of overview.apiTools)
    console.log(`  tool ${t.name.padEnd(10)} ${t.available ? `${t.source} ${t.path}` : "missing"}`);
  await printModels(config);
  const llm = overview.llm;
  console.log(
    llm.configured
      ? `llm ${llm.model} at ${llm.host}: ${llm.answering ? "answering" : `NOT ANSWERING (${llm.problem})`}`
      : "llm not configured (AI notes offline; set LLM_URL)",
  );
  if (overview.missing.length === 0) console.log("nothing missing");
  else {
    console.log("missing, and what to install:");
    for (const m of overview.missing) console.log(`  ${m.what} (${m.problem}): ${m.install}`);
  }
  console.log(`every speech model that can be fetched: ${MODELS_LIST_COMMAND}`);
}

/** The models this install's engines need (the worker's own rule), where the worker looks for them. */
async function printModels(config: Config): Promise<void> {
  // Loaded only for this command: the worker's model code is not needed by the others.
  const { modelsWanted } = await import("../apps/worker/src/engines/asr/factory.ts");
  const { ModelProvisioner } = await import("../apps/worker/src/models/provisioner.ts");
  const { modelSources } = await import("../apps/worker/src/models/sources.ts");
  const wanted = modelsWanted(config);
  if (wanted.length === 0) {
    console.log("  speech models: none needed by the configured engines (moonshine ships in npm; a server needs none)");
    return;
  }
  for (const want of wanted) {
    const here = ModelProvisioner.isReady(want);
    console.log(
      `  model ${want.spec.id.padEnd(16)} ${here ? `installed in ${want.dir}` : `missing: npm run models:fetch -- ${want.spec.id}`}`,
    );
  }
  const sources = modelSources(config).map((source) => source.name);
  console.log(`  model sources, tried in turn: ${sources.join(", ")} (ASR_MODEL_SOURCES, HF_ENDPOINT, ASR_MODEL_URL)`);
}

/** `jobs retry-failed [--queue q]`: every failed job (of one queue, or all) back to waiting, its tries from zero; audited. */
export async function retryFailedCommand(
  db: Db,
  config: Config,
  databaseUrl: string,
  queue: string | undefined,
): Promise<void> {
  if (queue !== undefined && !QUEUE_NAMES.includes(queue as QueueName)) {
    fail(`--queue must be one of: ${QUEUE_NAMES.join(", ")}`);
  }
  const backend = createQueueBackend({ redisUrl: config.REDIS_URL, databaseUrl, prefix: await queuePrefix(db) });
  try {
    const retried = await retryAllFailed(backend, queue as QueueName | undefined);
    await auditJobAction(db, CLI_ACTOR, { action: "jobs.retry-failed", queue: queue ?? "*", after: { retried } });
    console.log(`${retried} failed job(s) sent back to ${queue ?? "their queues"}`);
  } finally {
    await backend.close();
  }
}
