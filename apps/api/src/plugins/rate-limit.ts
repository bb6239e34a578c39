import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { routePath } from "../lib/route-path.ts";
import { sharedRateStore } from "../lib/shared-rate-store.ts";
import { isApiPath } from "./web.ts";

/**
 * A flood guard on every route of the server's own (RATE_LIMIT_PER_MINUTE, 600 by default): per user
 * for signed-in requests, per address for anonymous ones — so an office or a school behind one address
 * is as many people as it has, while one client hammering is refused (429, 10003, Retry-After). It is
 * counted after the session is known (preParsing) and, with REDIS_URL, shared by every API replica
 * (lib/shared-rate-store.ts: counted in memory, summed in Redis every 200 ms). The limits that guard
 * secrets (SMS codes, logins) are the account service's own, exact and in Redis.
 *
 * The SPA's pages and static assets are not counted: they are files from disk (cheap, and cached by the
 * browser), and a page must never answer JSON. A limited page under an API path (the login page) gets
 * a readable HTML page (errors.ts).
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config, redis, redisPrefix = "yuelu" } = app.deps;
    if (config.RATE_LIMIT_PER_MINUTE === 0) return;
    const shared = redis ? sharedRateStore(redis, `${redisPrefix}:rate:`) : undefined;
    if (shared) app.addHook("onClose", async () => shared.close());
    await app.register(rateLimit, {
      global: true,
      max: config.RATE_LIMIT_PER_MINUTE,
      timeWindow: 60_000,
      hook: "preParsing",
      keyGenerator: rateLimitKey,
      ...(shared ? { store: shared.Store } : {}),
      allowList: (request) => isUncounted(routePath(request)),
    });
  },
  { name: "rate-limit", dependencies: ["deps", "auth"] },
);

/** Probes and the SPA's pages and assets (by route: a percent-encoded API path is still an API path). */
function isUncounted(path: string): boolean {
  return path === "/healthz" || path === "/readyz" || !isApiPath(path);
}

/** Whose budget a request spends: its signed-in user's, else its address's. */
export function rateLimitKey(request: FastifyRequest): string {
  return request.session ? `user:${request.session.userId}` : `ip:${request.ip}`;
}
