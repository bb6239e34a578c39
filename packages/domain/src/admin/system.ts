import {
  type AdminEngine,
  type AdminEngines,
  type AdminMissing,
  type AdminTool,
  engineProblemFix,
  type Lang,
  type LlmStatus,
  ttsProblemFix,
} from "@yuelu/contracts";
import type { Db } from "@yuelu/db";
import { type EngineReport, type LiveWorker, localInstallHint, type ToolReport } from "@yuelu/runtime";
import { type AdminActor, audit } from "./audit.ts";

/** The operator console's system area (docs/admin.md "System"): engines and tools, job actions. */

export const MODELS_LIST_COMMAND = "npm run models:fetch -- --list";
export const MODELS_FETCH_COMMAND = "npm run models:fetch";

/** What the operator must do, in the console's language (the FIX tables are bilingual). */
function fixOf(kind: "asr" | "tts", problem: string | undefined, lang: Lang): string | null {
  if (!problem) return null;
  return kind === "tts" ? ttsProblemFix(problem, lang) : engineProblemFix(problem, lang);
}

const LLM_FIX: Record<Lang, string> = {
  zh: "启动 LLM_URL 指向的服务（GET /v1/models 须能应答），或改正 LLM_URL / LLM_KEY",
  en: "start the server LLM_URL names (GET /v1/models must answer), or correct LLM_URL / LLM_KEY",
};
const SEE_LOG: Record<Lang, string> = { zh: "查看 worker 日志", en: "see the worker's log" };

function engineView(report: EngineReport, kind: "asr" | "tts", lang: Lang): AdminEngine {
  return {
    kind,
    language: report.language,
    engine: report.engine,
    available: report.available,
    problem: report.available ? null : (report.problem ?? "unknown"),
    progress: report.progress ?? null,
    fix: report.available ? null : fixOf(kind, report.problem ?? "unknown", lang),
    modelSource: report.modelSource ?? null,
    sourceFailures: report.sourceFailures ?? [],
  };
}

function toolView(report: ToolReport, lang: Lang): AdminTool {
  return {
    name: report.name,
    available: report.available,
    source: report.source ?? null,
    path: report.path ?? null,
    version: report.version ?? null,
    install: report.available || !report.install ? null : localInstallHint(report.name, report.install, lang),
  };
}

/**
 * What the live workers (their heartbeats) and this API process have, and for everything missing
 * anywhere what installs it — once per thing, a model's `npm run models:fetch`, a tool's apt package.
 * The language model of AI notes is optional: unset it is not missing; set but not answering, it is.
 * What to do is worded in `lang`, the console's language (the CLI reads English).
 */
export function engineOverview(
  workers: LiveWorker[],
  apiTools: ToolReport[],
  llm: LlmStatus,
  lang: Lang = "en",
): AdminEngines {
  const views = workers.map((w) => ({
    workerId: w.workerId,
    hostname: w.hostname,
    pid: w.pid,
    startedAt: w.startedAt.toISOString(),
    seenAt: w.seenAt.toISOString(),
    engines: [
      ...w.engines.map((e) => engineView(e, "asr", lang)),
      ...w.ttsEngines.map((e) => engineView(e, "tts", lang)),
    ],
    tools: w.tools.map((t) => toolView(t, lang)),
  }));
  const missing = new Map<string, AdminMissing>();
  if (workers.length === 0) {
    missing.set("worker", { what: "worker", problem: "no-worker", install: engineProblemFix("no-worker", lang) });
  }
  for (const w of views) {
    for (const e of w.engines) {
      const what = `${e.kind} ${e.language} ${e.engine}`;
      if (!e.available && !missing.has(what)) {
        missing.set(what, { what, problem: e.problem ?? "unknown", install: e.fix ?? SEE_LOG[lang] });
      }
    }
  }
  const apiToolViews = apiTools.map((t) => toolView(t, lang));
  for (const t of [...apiToolViews, ...views.flatMap((w) => w.tools)]) {
    const what = `tool ${t.name}`;
    if (!t.available && !missing.has(what)) {
      missing.set(what, { what, problem: `${t.name}-missing`, install: t.install ?? `install ${t.name}` });
    }
  }
  if (llm.configured && llm.answering === false) {
    missing.set("llm", {
      what: `llm ${llm.host ?? ""} ${llm.model ?? ""}`.trim(),
      problem: llm.problem ?? "not answering",
      install: LLM_FIX[lang],
    });
  }
  return {
    workers: views,
    apiTools: apiToolViews,
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
