import multipart, { type FastifyMultipartOptions } from "@fastify/multipart";
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import fp from "fastify-plugin";

type Hook = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Whether a request may carry a multipart body (Fastify picks its body parser by this header). */
function mayBeMultipart(request: FastifyRequest): boolean {
  const type = request.headers["content-type"];
  return typeof type === "string" && /multipart/i.test(type);
}

/**
 * @fastify/multipart, its two per-request hooks run only where they can do something. The plugin puts
 * an async onRequest (a listener on the response's close) and an async onResponse on every request of
 * the server, both to delete the temporary files of `request.saveRequestFiles()` — which only a
 * multipart request can have. An async hook costs each request a promise and a tick, and a listener
 * more (bench/README.md "The hot path"): here both run, unchanged, for requests with a multipart body.
 */
export default fp(
  async (app: FastifyInstance, options: FastifyMultipartOptions) => {
    const held = new Map<string, Hook>();
    const addHook = app.addHook;
    // Only while the plugin registers: its hooks are taken aside, everything else goes through.
    app.addHook = function (this: FastifyInstance, name: string, hook: Hook) {
      if ((name === "onRequest" || name === "onResponse") && !held.has(name)) {
        held.set(name, hook);
        return this;
      }
      return (addHook as (name: string, hook: Hook) => FastifyInstance).call(this, name, hook);
    } as typeof app.addHook;
    try {
      await app.register(multipart, options);
    } finally {
      app.addHook = addHook;
    }
    const onRequest = held.get("onRequest");
    const onResponse = held.get("onResponse");
    if (onRequest) {
      app.addHook("onRequest", function (request, reply, done: HookHandlerDoneFunction) {
        if (!mayBeMultipart(request)) return done();
        onRequest.call(this, request, reply).then(() => done(), done);
      });
    }
    if (onResponse) {
      app.addHook("onResponse", function (request, reply, done: HookHandlerDoneFunction) {
        if (!request.isMultipart()) return done();
        onResponse.call(this, request, reply).then(() => done(), done);
      });
    }
  },
  { name: "multipart-on-demand" },
);
