import { StatusCode } from "@yuelu/contracts";
import { AppError } from "@yuelu/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { routeConfig } from "../lib/route-config.ts";
import { routePath } from "../lib/route-path.ts";
import { bearerToken } from "../modules/account/api-key-auth.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** server-to-server calls (payment notifications) that other sites may POST to */
    crossSite?: boolean;
    /** a GET that changes state (the spec's GET /order/checkout): refused from other sites like a POST */
    writes?: boolean;
  }
}

/** Paths whose answers are personal JSON (or files): never stored by a browser or a proxy cache. */
const PRIVATE_PREFIXES = ["/voice_yuelu/", "/v1/", "/account/api/", "/mock-alipay/api/"];

/**
 * The SPA's Content-Security-Policy: its own scripts only (Vite emits no inline script); inline
 * style attributes are allowed because React and Radix set them; media and images may be blob: URLs
 * (recordings, previews); frames from this origin only (the login frame).
 */
export const SPA_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join("; ");

function isPrivatePath(path: string): boolean {
  return PRIVATE_PREFIXES.some((p) => path.startsWith(p));
}

/** Whether each route pattern is private (asked once per route; the SPA's catch-all and 404s each time). */
const privateRoutes = new Map<string, boolean>();
function isPrivateRequest(request: FastifyRequest): boolean {
  const pattern = routeConfig(request).url;
  const path = routePath(request);
  if (!pattern || path !== pattern) return isPrivatePath(path);
  let known = privateRoutes.get(pattern);
  if (known === undefined) {
    known = isPrivatePath(pattern);
    privateRoutes.set(pattern, known);
  }
  return known;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a state-changing request comes from another site's page. Browsers say so with
 * Sec-Fetch-Site (anything but same-origin, or none for what the user typed), else with an Origin
 * that is not this site's. Requests with neither header are not from a browser page (curl, apps,
 * servers) and carry no ambient cookies an attacker could borrow.
 */
export function isCrossSite(request: FastifyRequest, publicUrl?: string): boolean {
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string") return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  if (typeof origin !== "string") return false;
  const own = new Set([`${request.protocol}://${request.host}`]);
  if (publicUrl) own.add(new URL(publicUrl).origin);
  return !own.has(origin);
}

/**
 * Baseline security: cross-site state-changing requests are refused (403, 10007) — SameSite=Lax
 * cookies alone leave same-site subdomains and old browsers open; personal JSON is never cached;
 * frames are allowed from this origin only (the SPA embeds the account service's login page).
 */
export default fp(
  async (app: FastifyInstance) => {
    const publicUrl = app.deps.config.PUBLIC_URL;
    // (synchronous hooks: they run on every request, bench/README.md)
    app.addHook("onRequest", (request, _reply, done) => {
      const { crossSite, writes } = routeConfig(request);
      if ((SAFE_METHODS.has(request.method) && !writes) || crossSite) return done();
      // A Bearer API key is no ambient credential a page can borrow (the cookie is then ignored):
      // integrators may call from anywhere.
      if (bearerToken(request) !== undefined) return done();
      done(isCrossSite(request, publicUrl) ? new AppError(StatusCode.AccessDenied, {}, 403) : undefined);
    });
    app.addHook("onSend", (request, reply, payload, done) => {
      reply.header("x-content-type-options", "nosniff");
      reply.header("referrer-policy", "strict-origin-when-cross-origin");
      reply.header("x-frame-options", "SAMEORIGIN");
      if (!reply.hasHeader("cache-control") && isPrivateRequest(request)) {
        reply.header("cache-control", "no-store");
      }
      done(null, payload);
    });
  },
  { name: "security", dependencies: ["deps"] },
);
