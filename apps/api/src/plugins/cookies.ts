import cookie from "@fastify/cookie";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

type Cookies = Record<string, string | undefined>;

/**
 * Request cookies (`request.cookies`) and reply cookies (`reply.setCookie`, signed with the app's
 * secret), through @fastify/cookie — whose own hook parses every request's Cookie header anew. A
 * browser sends the same header on every call of a kept-alive connection, so the last parse of each
 * connection is kept and handed out again while the header is the same (bench/README.md "The hot
 * path"). Nobody writes to `request.cookies` (a reply's cookies go through `setCookie`), so the
 * requests of one connection can read the same frozen object.
 */
export default fp(
  async (app: FastifyInstance, options: { secret: string }) => {
    await app.register(cookie, { secret: options.secret, hook: false });
    const none: Cookies = Object.freeze({});
    // by connection (gone with it): the header last parsed there, and its cookies
    const lastParsed = new WeakMap<object, { header: string; cookies: Cookies }>();
    app.addHook("onRequest", (request, _reply, done) => {
      const header = request.headers.cookie;
      if (!header) {
        request.cookies = none;
        return done();
      }
      const socket = request.raw.socket;
      const last = socket ? lastParsed.get(socket) : undefined;
      if (last?.header === header) {
        request.cookies = last.cookies;
        return done();
      }
      const cookies: Cookies = Object.freeze(app.parseCookie(header));
      if (socket) lastParsed.set(socket, { header, cookies });
      request.cookies = cookies;
      done();
    });
  },
  { name: "cookies" },
);
