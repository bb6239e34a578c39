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
