import { ENGINE_PROBLEM_FIX, type EngineProblem, TTS_PROBLEM_FIX, type TtsEngineProblem } from "@yuelu/contracts";
import { liveWorkers, type ToolReport, toolReports } from "@yuelu/runtime";
import type { FastifyInstance } from "fastify";
import { isLoopbackClient } from "../../lib/loopback.ts";

/**
 * /healthz: the process answers. /readyz: its database (and Redis, when configured) answer too —
 * readiness fails only on those. It also says which workers are alive, what they can transcribe and
 * speak (their heartbeats), and which outside programs each process found and where (the system's,
 * or the copies npm ships: runtime/tools.ts), so an operator sees "no worker", a missing model or a
 * missing ffprobe at a glance; the API itself serves without workers. Users read an engine problem
 * as a plain sentence; what the operator must do about it (`fix`: a command, a variable) is here.
 * Strangers learn only whether it is ready: hosts, pids, worker ids, paths and program versions go
 * to callers on this machine (an operator's curl, a container's health check), never through a proxy.
 */
let draining = false;

/**
 * This process is stopping (apps/api/src/main.ts, on SIGTERM): /readyz answers 503 "draining" from
 * now on, while every route still serves, so balancers stop sending before the port closes.
 */
export function startDraining(): void {
  draining = true;
}

export default async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", { logLevel: "warn", schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { logLevel: "warn", schema: { hide: true } }, async (request, reply) => {
    const checks: Record<string, string> = {};
    let workers: Awaited<ReturnType<typeof liveWorkers>> = [];
    try {
      await app.deps.db.$queryRaw`SELECT 1`;
      checks.database = "ok";
      workers = await liveWorkers(app.deps.db);
    } catch (error) {
      checks.database = (error as Error).message;
    }
    if (app.deps.redis) {
      try {
        await app.deps.redis.ping();
        checks.redis = "ok";
      } catch (error) {
        checks.redis = (error as Error).message;
      }
    }
    const ready = Object.values(checks).every((v) => v === "ok") && !draining;
    reply.code(ready ? 200 : 503).header("cache-control", "no-store");
    const status = draining ? "draining" : ready ? "ready" : "not ready";
    const detailed = isLoopbackClient(request);
    if (!detailed) {
      return {
        status,
        checks: Object.fromEntries(Object.entries(checks).map(([k, v]) => [k, v === "ok" ? "ok" : "failing"])),
        workers: { live: workers.length },
      };
    }
    return {
      status,
      checks,
      // the API probes uploads itself (ffprobe) and measures them (ffmpeg); the workers decode and speak
      api: { tools: toolReports(["ffprobe", "ffmpeg"], app.deps.config) },
      workers: {
        live: workers.length,
        list: workers.map((w) => ({
          workerId: w.workerId,
          hostname: w.hostname,
          pid: w.pid,
          seenAt: w.seenAt.toISOString(),
          engines: w.engines.map((e) => withFix(e, ENGINE_PROBLEM_FIX[e.problem as EngineProblem])),
          ttsEngines: w.ttsEngines.map((e) => withFix(e, TTS_PROBLEM_FIX[e.problem as TtsEngineProblem])),
          tools: w.tools,
        })),
      },
      missing: missingTools([toolReports(["ffprobe", "ffmpeg"], app.deps.config), ...workers.map((w) => w.tools)]),
    };
  });
}

/** "what to install" for every tool some process lacks, once each. */
function missingTools(lists: ToolReport[][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of lists.flat()) if (!r.available && r.install) out[r.name] ??= r.install;
  return out;
}

/** An engine report with what the operator must do when it is not available. */
function withFix<T extends { available: boolean }>(report: T, fix: string | undefined): T & { fix?: string } {
  return report.available || !fix ? report : { ...report, fix };
}
