import {
  type AdminEngine,
  type AdminEngines,
  type AdminMissing,
  type AdminTool,
  ENGINE_PROBLEM_FIX,
  type EngineProblem,
  type LlmStatus,
  TTS_PROBLEM_FIX,
  type TtsEngineProblem,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import type { EngineReport, LiveWorker, ToolReport } from "@yuelu/runtime";
import { type AdminActor, audit } from "./audit.ts";

/** The operator console's system area (docs/admin.md "System"): engines and tools, job actions. */

export const MODELS_LIST_COMMAND = "npm run models:fetch -- --list";
export const MODELS_FETCH_COMMAND = "npm run models:fetch";

function fixOf(kind: "asr" | "tts", problem: string | undefined): string | null {
  if (!problem) return null;
  return kind === "tts"
    ? (TTS_PROBLEM_FIX[problem as TtsEngineProblem] ?? TTS_PROBLEM_FIX.unknown)
    : (ENGINE_PROBLEM_FIX[problem as EngineProblem] ?? ENGINE_PROBLEM_FIX.unknown);
}

function engineView(report: EngineReport, kind: "asr" | "tts"): AdminEngine {
  return {
    kind,
    language: report.language,
    engine: report.engine,
    available: report.available,
    problem: report.available ? null : (report.problem ?? "unknown"),
    progress: report.progress ?? null,
    fix: report.available ? null : fixOf(kind, report.problem ?? "unknown"),
  };
}

function toolView(report: ToolReport): AdminTool {
  return {
    name: report.name,
    available: report.available,
    source: report.source ?? null,
    path: report.path ?? null,
    version: report.version ?? null,
    install: report.available ? null : (report.install ?? null),
  };
}

/**
 * What the live workers (their heartbeats) and this API process have, and for everything missing
 * anywhere what installs it — once per thing, a model's `npm run models:fetch`, a tool's apt package.
 * The language model of AI notes is optional: unset it is not missing; set but not answering, it is.
 */
export function engineOverview(workers: LiveWorker[], apiTools: ToolReport[], llm: LlmStatus): AdminEngines {
  const views = workers.map((w) => ({
    workerId: w.workerId,
    hostname: w.hostname,
    pid: w.pid,
    startedAt: w.startedAt.toISOString(),
    seenAt: w.seenAt.toISOString(),
    engines: [...w.engines.map((e) => engineView(e, "asr")), ...w.ttsEngines.map((e) => engineView(e, "tts"))],
    tools: w.tools.map(toolView),
  }));
  const missing = new Map<string, AdminMissing>();
  if (workers.length === 0) {
    missing.set("worker", { what: "worker", problem: "no-worker", install: ENGINE_PROBLEM_FIX["no-worker"] });
  }
  for (const w of views) {
    for (const e of w.engines) {
      const what = `${e.kind} ${e.language} ${e.engine}`;
      if (!e.available && !missing.has(what)) {
        missing.set(what, { what, problem: e.problem ?? "unknown", install: e.fix ?? "see the worker's log" });
      }
    }
  }
  for (const t of [...apiTools.map(toolView), ...views.flatMap((w) => w.tools)]) {
    const what = `tool ${t.name}`;
    if (!t.available && !missing.has(what)) {
      missing.set(what, { what, problem: `${t.name}-missing`, install: t.install ?? `install ${t.name}` });
    }
  }
  if (llm.configured && llm.answering === false) {
    missing.set("llm", {
      what: `llm ${llm.host ?? ""} ${llm.model ?? ""}`.trim(),
      problem: llm.problem ?? "not answering",
      install: "start the server LLM_URL names (GET /v1/models must answer), or correct LLM_URL / LLM_KEY",
    });
  }
  return {
    workers: views,
    apiTools: apiTools.map(toolView),
    missing: [...missing.values()],
    models: { list: MODELS_LIST_COMMAND, fetch: MODELS_FETCH_COMMAND },
    llm,
  };
}

/** Audits an operator's action on queued jobs (retry, remove, retry every failed one). */
export async function auditJobAction(
  db: Db,
  actor: AdminActor,
  entry: {
    action: "job.retry" | "job.remove" | "jobs.retry-failed";
    /** a queue's name, or '*' for every queue */
    queue: string;
    jobId?: string;
    before?: unknown;
    after?: unknown;
  },
): Promise<void> {
  await audit(db, actor, {
    action: entry.action,
    target: entry.jobId ? `job:${entry.queue}/${entry.jobId}` : `queue:${entry.queue}`,
    before: entry.before,
    after: entry.after,
  });
}
