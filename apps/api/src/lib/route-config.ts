import type { FastifyRequest } from "fastify";

type RouteConfig = FastifyRequest["routeOptions"]["config"];

declare module "fastify" {
  interface FastifyRequest {
    /** the config `routeConfig` read for this request (null until then): see below */
    routeConfigSeen: FastifyRequest["routeOptions"]["config"] | null;
  }
}

/**
 * The config of the route a request reached — its `url` is the route's pattern, undefined for the
 * 404 handler — read once per request. `request.routeOptions` builds a new object at every read, and
 * the hooks every request passes (slow clients, security, the flood guard, auth, metrics) read it
 * about ten times (bench/README.md "The hot path"). A request handed to the 404 handler
 * (`reply.callNotFound`) has reached another route by then: its config is read again.
 */
export function routeConfig(request: FastifyRequest): RouteConfig {
  const seen = request.routeConfigSeen;
  if (seen != null && (seen.url === undefined) === request.is404) return seen;
  const config = request.routeOptions.config;
  request.routeConfigSeen = config;
  return config;
}
