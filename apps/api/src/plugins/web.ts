import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { routePath } from "../lib/route-path.ts";
import { SPA_CSP } from "./security.ts";

/** Paths the server answers itself; every other GET is the SPA's. */
export const API_PATHS = ["/voice_yuelu", "/v1", "/account", "/mock-alipay", "/healthz", "/readyz", "/metrics", "/s"];

/** Whether a path (a route's pattern or a decoded path: lib/route-path.ts) is one the server answers itself. */
export function isApiPath(pathname: string): boolean {
  return API_PATHS.some((p) => pathname === p || pathname.startsWith(`${p}/`));
}

/**
 * Serves the built SPA (WEB_DIST) with history-mode fallback: any other GET that wants HTML gets
 * index.html and the SPA's router decides (its own /404 page for unknown paths).
 */
export default fp(
  async (app: FastifyInstance) => {
    const root = path.resolve(app.deps.config.WEB_DIST);
    const index = path.join(root, "index.html");
    if (!existsSync(index)) {
      app.log.warn(`web app not built (${index} missing): run \`npm run build\``);
      app.get("/", { config: { auth: "public" } }, async (_request, reply) =>
        reply.type("text/html; charset=utf-8").send(NOT_BUILT_PAGE),
      );
      return;
    }
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      setHeaders(reply, filePath) {
        // Vite names assets by content hash: cache them for good; never cache the HTML shell.
        reply.header(
          "cache-control",
          filePath.includes(`${path.sep}assets${path.sep}`) ? "public, max-age=31536000, immutable" : "no-cache",
        );
      },
    });
    app.get("/*", async (request, reply) => {
      if (isApiPath(routePath(request))) return reply.callNotFound();
      return reply
        .header("cache-control", "no-cache")
        .header("content-security-policy", SPA_CSP)
        .sendFile("index.html");
    });
  },
  { name: "web", dependencies: ["deps"] },
);

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>悦录 Yuelu</title>
<body style="font-family:system-ui;max-width:40rem;margin:3rem auto;padding:0 1rem">
<h1>悦录 Yuelu</h1><p>The API is running. The web app has not been built: run <code>npm run build</code>.</p>
<p><a href="/account/login">Sign in</a> · <a href="/voice_yuelu/docs">API docs</a></p></body>`;
