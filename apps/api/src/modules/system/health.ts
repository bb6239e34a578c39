import { liveWorkers } from "@yuelu/runtime";
import type { FastifyInstance } from "fastify";

/**
 * /healthz: the process answers. /readyz: its database (and Redis, when configured) answer too —
 * readiness fails only on those. It also says which workers are alive and what they can transcribe
 * (their heartbeats: speech recognition and text to speech), so an operator sees "no worker" or a missing model at a glance; the API itself
 * serves without workers.
 */
export default async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", { logLevel: "warn", schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { logLevel: "warn", schema: { hide: true } }, async (_request, reply) => {
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
    const ready = Object.values(checks).every((v) => v === "ok");
    return reply
      .code(ready ? 200 : 503)
      .header("cache-control", "no-store")
      .send({
        status: ready ? "ready" : "not ready",
        checks,
        workers: {
          live: workers.length,
          list: workers.map((w) => ({
            workerId: w.workerId,
            hostname: w.hostname,
            pid: w.pid,
            seenAt: w.seenAt.toISOString(),
            engines: w.engines,
            ttsEngines: w.ttsEngines,
          })),
        },
      });
  });
}
