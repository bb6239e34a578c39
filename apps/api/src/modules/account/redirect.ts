import type { FastifyRequest } from "fastify";

/**
 * `redir` if it points at this site, else "/". Accepts a path ("/vip?x=1") or an absolute http(s)
 * URL on the request's own host or PUBLIC_URL's; refuses everything else ("//evil.com",
 * "/\\evil.com", "javascript:", other hosts), so logout and login cannot be open redirects.
 */
export function safeRedirect(redir: unknown, request: FastifyRequest, publicUrl?: string): string {
  if (typeof redir !== "string" || redir.length === 0 || redir.length > 2000) return "/";
  if (/[\u0000-\u001f\\]/.test(redir)) return "/";
  if (redir.startsWith("/") && !redir.startsWith("//")) return redir;
  let url: URL;
  try {
    url = new URL(redir);
  } catch {
    return "/";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "/";
  const allowedHosts = new Set([request.host]);
  if (publicUrl) allowedHosts.add(new URL(publicUrl).host);
  return allowedHosts.has(url.host) ? url.toString() : "/";
}

const LOOPBACK_ADDRESSES = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * A client on this machine talking to it directly: the Host names a loopback host, the connection
 * (and the address the proxy settings resolve) is loopback, and no proxy forwarded it. Only such a
 * client may use dev-login or see a console SMS code in the answer: behind a reverse proxy on the
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
