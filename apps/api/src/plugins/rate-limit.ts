import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/**
 * A per-IP ceiling on every route (RATE_LIMIT_PER_MINUTE). Counters live in Redis when it is
 * configured, so replicas share them. Tighter limits on SMS and login live in the account service.
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config, redis } = app.deps;
    if (config.RATE_LIMIT_PER_MINUTE === 0) return;
    await app.register(rateLimit, {
      global: true,
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      ...(redis ? { redis, nameSpace: "yuelu:rl:" } : {}),
      allowList: (request) => request.url === "/healthz" || request.url === "/readyz",
    });
  },
  { name: "rate-limit", dependencies: ["deps"] },
);
