import { httpStatusMessages } from "@yuelu/contracts";
import { exposeQueues, metricsAccess, metricsText, observeHttp } from "@yuelu/runtime";
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { requestLang } from "../lib/lang.ts";
import { isLoopbackClient } from "../lib/loopback.ts";
import { routeConfig } from "../lib/route-config.ts";
import { sendEnvelope } from "./errors.ts";

export const METRICS_PATH = "/metrics";

/** The route label of a request: its pattern, never the raw URL (ids would make one series each). */
export function routeLabel(request: FastifyRequest): string {
  // Requests no route matched (the 404 handler, framework errors) have no pattern.
  return routeConfig(request).url ?? "unmatched";
}

/**
 * GET /metrics in Prometheus text format (docs/metrics.md) and the HTTP request histogram. The
 * scrape itself is not observed, so the latency of the API is what the p95 alert watches.
 * Who may read it: runtime/metrics.ts `metricsAccess` — hidden (404, as any unknown path) in
 * production without METRICS_TOKEN; 401 without the right bearer token.
 */
export default fp(
  async (app: FastifyInstance) => {
    const hide = exposeQueues(app.deps.queues);
    app.addHook("onClose", async () => hide());

    app.addHook("onResponse", (request, reply, done) => {
      const route = routeLabel(request);
      if (route !== METRICS_PATH) {
        observeHttp({ method: request.method, route, status_code: reply.statusCode }, reply.elapsedTime / 1000);
      }
      done();
    });

    app.get(METRICS_PATH, { logLevel: "warn", schema: { hide: true } }, async (request, reply) => {
      const access = metricsAccess(app.deps.config, {
        authorization: request.headers.authorization,
        loopback: isLoopbackClient(request),
      });
      if (access === "hidden") return reply.callNotFound();
      if (access === "unauthorized") {
        reply.header("www-authenticate", 'Bearer realm="metrics"');
        return sendEnvelope(reply, 401, 401, httpStatusMessages[401]![requestLang(request)]);
      }
      const { contentType, body } = await metricsText();
      return reply.header("cache-control", "no-store").type(contentType).send(body);
    });
  },
  { name: "metrics", dependencies: ["deps", "errors"] },
);
