import type { FastifyRequest } from "fastify";

const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * A client on this machine talking to it directly: the Host names a loopback host, the connection
 * (and the address the proxy settings resolve) is loopback, and no proxy forwarded it. Only such a
 * client may use dev-login, see a console SMS code in the answer, drive the mock gateway for
 * any order, or read /readyz's details on a production install: behind a reverse proxy on the
 * same machine every visitor's connection is loopback, but the forwarding headers give it away.
 */
export function isLoopbackClient(request: FastifyRequest): boolean {
  const host = request.hostname.replace(/^\[|\]$/g, "");
  const localHost = host === "localhost" || host === "127.0.0.1" || host === "::1";
  const forwarded = ["x-forwarded-for", "forwarded", "x-real-ip"].some((h) => request.headers[h] !== undefined);
  return (
    localHost &&
    !forwarded &&
    LOOPBACK_ADDRESSES.has(request.socket.remoteAddress ?? "") &&
    LOOPBACK_ADDRESSES.has(request.ip)
  );
}
