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

export function isLocalDevHost(request: FastifyRequest): boolean {
  const host = request.hostname.replace(/^\[|\]$/g, "");
  const localHost = host === "localhost" || host === "127.0.0.1" || host === "::1";
  // The Host header is the client's to choose: also require the connection to come from this machine.
  const remote = request.socket.remoteAddress ?? "";
  const localPeer = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
  return localHost && localPeer;
}
