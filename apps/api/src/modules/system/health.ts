import type { FastifyInstance } from "fastify";

/** /healthz: the process answers. /readyz: its database (and Redis, when configured) answer too. */
export default async function healthRoutes(app: FastifyInstance) {
  app.get("/healthz", { logLevel: "warn", schema: { hide: true } }, async () => ({ status: "ok" }));
  app.get("/readyz", { logLevel: "warn", schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    try {
      await app.deps.db.$queryRaw`SELECT 1`;
      checks.database = "ok";
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
    return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not ready", checks });
  });
}
