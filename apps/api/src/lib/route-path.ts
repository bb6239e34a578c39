import type { FastifyRequest } from "fastify";
import { routeConfig } from "./route-config.ts";

/** The SPA's history-mode fallback (plugins/web.ts): it matches any path, so its pattern says nothing. */
const CATCH_ALL = "/*";

/**
 * The path that every rule about paths reads (rate limits, caching, the SPA fallback): the matched
 * route's pattern — `/voice_yuelu/api/v1/user/info`, `/s/:token` — and, where no route of the server's
 * own matched (a 404, the SPA's catch-all), the request's path decoded once, as the router decodes it.
 *
 * Never the raw URL: the router decodes percent-escapes before matching, so `/%76oice_yuelu/…` reaches
 * the `/voice_yuelu/…` route, and a hook comparing `request.url` would class that request apart from the
 * route it reaches (it skipped the flood guard and lost `Cache-Control: no-store`).
 */
export function routePath(request: FastifyRequest): string {
  // (a pattern means a route of the server's own matched: the 404 handler has none)
  const pattern = routeConfig(request).url;
  if (pattern && pattern !== CATCH_ALL) return pattern;
  return decodedPath(request.url);
}

/** The path of a URL (no query), percent-escapes decoded; a malformed escape leaves it as sent. */
export function decodedPath(url: string): string {
  const raw = url.split("?")[0] || "/";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
