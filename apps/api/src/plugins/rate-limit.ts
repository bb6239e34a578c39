import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import fp from "fastify-plugin";
import { routeConfig } from "../lib/route-config.ts";
import { routePath } from "../lib/route-path.ts";
import { localRateCounter, type RateCounter, sharedRateCounter } from "../lib/shared-rate-store.ts";
import { isApiPath } from "./web.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** false: not counted by the flood guard (server-to-server notifications) */
    rateLimit?: false;
  }
}

const WINDOW_MS = 60_000;

/**
 * A flood guard on every route of the server's own (RATE_LIMIT_PER_MINUTE, 600 by default): per user
 * for signed-in requests, per address for anonymous ones — so an office or a school behind one address
 * is as many people as it has, while one client hammering is refused (429, 10003, Retry-After). It is
 * counted once the caller is known (after the auth plugin's hook) and, with REDIS_URL, shared by every
 * API replica (lib/shared-rate-store.ts: counted in memory, summed in Redis every 200 ms). The limits
 * that guard secrets (SMS codes, logins) are the account service's own, exact and in Redis.
 *
 * On the hot path it is one synchronous hook and a map lookup: no Redis round trip, no promise, and no
 * headers on answers it lets through (a refusal carries Retry-After and the X-RateLimit-* headers).
 *
 * The SPA's pages and static assets are not counted: they are files from disk (cheap, and cached by the
 * browser), and a page must never answer JSON. A limited page under an API path (the login page) gets
 * a readable HTML page (errors.ts).
 */
export default fp(
  async (app: FastifyInstance) => {
    const { config, redis, redisPrefix = "yuelu" } = app.deps;
    const max = config.RATE_LIMIT_PER_MINUTE;
    if (max === 0) return;
    const counter: RateCounter = redis ? sharedRateCounter(redis, `${redisPrefix}:rate:`) : localRateCounter();
    app.addHook("onClose", async () => counter.close());
    app.addHook("onRequest", (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (routeConfig(request).rateLimit === false || isUncounted(request)) return done();
      const { count, resetInMs } = counter.hit(rateLimitKey(request), WINDOW_MS);
      if (count <= max) return done();
      const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
      reply.header("retry-after", seconds);
      reply.header("x-ratelimit-limit", max);
      reply.header("x-ratelimit-remaining", 0);
      reply.header("x-ratelimit-reset", seconds);
      done(Object.assign(new Error(`Rate limit exceeded, retry in ${seconds} seconds`), { statusCode: 429 }));
    });
  },
  { name: "rate-limit", dependencies: ["deps", "auth"] },
);

/** Whether each route pattern is counted (asked once per route). */
const uncountedRoutes = new Map<string, boolean>();

/** Probes and the SPA's pages and assets (by route: a percent-encoded API path is still an API path). */
function isUncounted(request: FastifyRequest): boolean {
  const pattern = routeConfig(request).url;
  if (pattern) {
    let uncounted = uncountedRoutes.get(pattern);
    if (uncounted === undefined) {
      uncounted = uncountedPath(routePath(request));
      // the SPA's catch-all is decided by the path each time (routePath decodes it)
      if (routePath(request) === pattern) uncountedRoutes.set(pattern, uncounted);
    }
    return uncounted;
  }
  return uncountedPath(routePath(request));
}

function uncountedPath(path: string): boolean {
  return path === "/healthz" || path === "/readyz" || !isApiPath(path);
}

/** Whose budget a request spends: its signed-in user's, else its address's. */
export function rateLimitKey(request: FastifyRequest): string {
  return request.session ? `user:${request.session.userId}` : `ip:${request.ip}`;
}
