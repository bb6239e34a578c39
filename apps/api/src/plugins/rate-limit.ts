import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { isApiPath } from "./web.ts";

/**
 * A coarse per-IP ceiling on every route (RATE_LIMIT_PER_MINUTE), counted in each replica's memory:
 * a Redis round trip on every request halved throughput (bench/README.md), and a flood guard does
 * not need to be exact. The limits that matter for security (SMS, login) are shared through Redis
 * by the account service. Only the server's own paths count: the SPA's pages and static assets are
 * files from disk (cheap, and cached by the browser), and a page must never answer JSON. A limited
 * page under an API path (the login page) gets a readable HTML page (errors.ts).
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config } = app.deps;
    if (config.RATE_LIMIT_PER_MINUTE === 0) return;
    await app.register(rateLimit, {
      global: true,
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      allowList: (request) => request.url === "/healthz" || request.url === "/readyz" || !isApiPath(request.url),
    });
  },
  { name: "rate-limit", dependencies: ["deps"] },
);
