import { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { routeConfig } from "../lib/route-config.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** the largest body an upload route takes (multipart framing included): more is refused unread (413) */
    maxBody?: number;
  }
}

/** A body must bring at least this much in every stall window, or its connection is cut. */
const MIN_PROGRESS_BYTES = 16 * 1024;
const CHECK_EVERY_MS = 1000;

/**
 * Clients that hold connections without finishing their requests (slowloris, a body trickled a byte
 * at a time) get them cut, so they cannot pin the server's sockets and memory:
 * - the request line and headers must arrive within 30 s (Node's headersTimeout);
 * - a body must keep moving: at least 16 KiB in every BODY_STALL_SECONDS (30) — a 1 GiB upload may
 *   take as long as it needs, but a body sent a byte every few seconds ends;
 * - an upload route refuses a body announced larger than it takes (`config.maxBody`) before reading it;
 * - one address holds at most MAX_CONNECTIONS_PER_ADDRESS connections at once (not behind a proxy,
 *   where every connection comes from the proxy).
 */
export default fp(
  async (app: FastifyInstance) => {
    const { BODY_STALL_SECONDS, MAX_CONNECTIONS_PER_ADDRESS, TRUST_PROXY_HOPS } = app.deps.config;
    app.server.headersTimeout = 30_000;

    if (TRUST_PROXY_HOPS === 0 && MAX_CONNECTIONS_PER_ADDRESS > 0) {
      const open = new Map<string, number>();
      app.server.on("connection", (socket: Socket) => {
        const address = socket.remoteAddress ?? "";
        const count = (open.get(address) ?? 0) + 1;
        if (count > MAX_CONNECTIONS_PER_ADDRESS) {
          socket.destroy();
          return;
        }
        open.set(address, count);
        socket.once("close", () => {
          const left = (open.get(address) ?? 1) - 1;
          if (left > 0) open.set(address, left);
          else open.delete(address);
        });
      });
    }

    // (a synchronous hook: it runs on every request, bench/README.md)
    app.addHook("onRequest", (request, reply, done) => {
      const declared = Number(request.headers["content-length"]);
      const { maxBody } = routeConfig(request);
      if (maxBody !== undefined && Number.isFinite(declared) && declared > maxBody) {
        reply.header("connection", "close");
        return done(
          Object.assign(new Error("request body too large"), {
            code: "FST_ERR_CTP_BODY_TOO_LARGE",
            statusCode: 413,
          }),
        );
      }
      const hasBody = declared > 0 || request.headers["transfer-encoding"] !== undefined;
      const socket = request.raw.socket;
      // requests made in-process (app.inject: the mock gateway's notifications) have no real socket
      if (!hasBody || request.raw.complete || !(socket instanceof Socket)) return done();
      let mark = socket.bytesRead;
      let markedAt = Date.now();
      const timer = setInterval(() => {
        if (request.raw.complete || socket.destroyed) return clearInterval(timer);
        if (socket.bytesRead - mark >= MIN_PROGRESS_BYTES) {
          mark = socket.bytesRead;
          markedAt = Date.now();
        } else if (Date.now() - markedAt > BODY_STALL_SECONDS * 1000) {
          clearInterval(timer);
          request.log.warn({ received: socket.bytesRead - mark }, "request body stalled: connection cut");
          socket.destroy();
        }
      }, CHECK_EVERY_MS);
      timer.unref();
      request.raw.once("close", () => clearInterval(timer));
      done();
    });
  },
  { name: "slow-clients", dependencies: ["deps"] },
);
