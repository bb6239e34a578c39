import { randomUUID } from "node:crypto";
import compress from "@fastify/compress";
import { validatorCompiler } from "@fastify/type-provider-zod";
import websocket from "@fastify/websocket";
import { LIVE_FRAME_MAX_BYTES } from "@yuelu/contracts";
import { type DomainContext, systemClock } from "@yuelu/domain";
import Fastify, { type FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import type { AppDeps } from "./deps.ts";
import { API_PREFIX } from "./lib/file-urls.ts";
import { lazyChildLogger, OneLineRequestLog, serializerCompiler } from "./lib/hot-path.ts";
import accountRoutes from "./modules/account/routes.ts";
import openAiRoutes from "./modules/openai/routes.ts";
import payments from "./modules/payments/plugin.ts";
import sharePublicRoutes from "./modules/share/public.ts";
import healthRoutes from "./modules/system/health.ts";
import voiceYuelu from "./modules/voice-yuelu.ts";
import auth from "./plugins/auth.ts";
import caches from "./plugins/caches.ts";
import cookies from "./plugins/cookies.ts";
import docs from "./plugins/docs.ts";
import errors, { clientErrorHandler, frameworkErrors } from "./plugins/errors.ts";
import metrics from "./plugins/metrics.ts";
import params, { BODY_LIMIT } from "./plugins/params.ts";
import rateLimit from "./plugins/rate-limit.ts";
import security from "./plugins/security.ts";
import slowClients from "./plugins/slow-clients.ts";
import web from "./plugins/web.ts";

export { API_PREFIX };

declare module "fastify" {
  interface FastifyInstance {
    /** what the business rules of packages/domain receive */
    domain: DomainContext;
  }
}

/**
 * Builds the whole HTTP application: /voice_yuelu API, /account service, health checks, docs and
 * the built SPA. Layers load in a fixed order: deps → cross-cutting plugins → routes.
 */
export async function buildApp(deps: AppDeps, options: { loggerInstance?: FastifyBaseLogger } = {}) {
  const app = Fastify({
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: false }),
    // Trust X-Forwarded-For only from as many proxies as the operator says sit in front.
    trustProxy: (_address: string, hop: number) => hop < deps.config.TRUST_PROXY_HOPS,
    bodyLimit: BODY_LIMIT,
    // Errors met before routing (a bad percent-escape in the path…) answer the envelope too.
    frameworkErrors,
    // …and so do requests Node's HTTP parser refuses (an unknown method, a malformed request line).
    clientErrorHandler,
    // one log line per request, and its logger made only when something is logged (lib/hot-path.ts)
    logController: new OneLineRequestLog(),
    childLoggerFactory: lazyChildLogger,
    requestIdHeader: "x-request-id",
    genReqId: (req) => {
      const incoming = req.headers["x-request-id"];
      return typeof incoming === "string" && /^[\w.-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    routerOptions: { maxParamLength: 200 },
  });
  // each request's route config, read once by the hooks (lib/route-config.ts)
  app.decorateRequest("routeConfigSeen", null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(
    fp(
      async (instance) => {
        instance.decorate("deps", deps);
        instance.decorate("domain", {
          db: deps.db,
          clock: deps.clock ?? systemClock,
          events: deps.events,
          config: deps.config,
          files: deps.files,
        } satisfies DomainContext);
      },
      { name: "deps" },
    ),
  );
  app.addHook("onSend", (request, reply, payload, done) => {
    reply.header("x-request-id", request.id);
    done(null, payload);
  });
  await app.register(errors);
  // WebSocket routes (live captions, docs/live.md): one server for the app, frames of at most ~2 s of audio.
  // Registered before every plugin that may refuse a request (security, rate limits): its hook marks an
  // upgrade request first, so a refused handshake's connection is closed rather than left open.
  await app.register(websocket, { options: { maxPayload: LIVE_FRAME_MAX_BYTES + 1024 } });
  // GET /metrics and the request histogram (docs/metrics.md): registered first, so every route is timed
  await app.register(metrics);
  await app.register(slowClients);
  // Answers over 1 KiB go out compressed when the client accepts it (brotli at quality 4, gzip):
  // a 5-hour transcript's get_text shrinks about tenfold. Media (audio, zip) is left as it is.
  await app.register(compress, { global: true, threshold: 1024, encodings: ["br", "gzip", "deflate"] });
  await app.register(security);
  await app.register(cookies, { secret: deps.cookieSecret });
  await app.register(params);
  await app.register(caches);
  await app.register(auth);
  // after auth: signed-in requests are counted per user
  await app.register(rateLimit);
  await app.register(docs);

  await app.register(payments);
  await app.register(healthRoutes);
  await app.register(accountRoutes, { prefix: "/account" });
  await app.register(voiceYuelu, { prefix: API_PREFIX });
  // OpenAI-compatible speech endpoints for integrators' scripts (docs/integrators.md): their own error shape
  await app.register(openAiRoutes, { prefix: "/v1" });
  // public share pages /s/<token> (docs/share.md): no sign-in, before the SPA's fallback
  await app.register(sharePublicRoutes);
  await app.register(web);
  return app;
}
