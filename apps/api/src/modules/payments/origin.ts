import { networkInterfaces } from "node:os";
import type { Config } from "@yuelu/runtime";
import type { FastifyRequest } from "fastify";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** The machine's first LAN IPv4 address, if it has one. */
function lanAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const a of addresses ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return undefined;
}

/**
 * The origin payUrls (the QR) and notification URLs use: PUBLIC_URL when set; else the origin the
 * browser used — except that a laptop install browsed at localhost, and listening on every interface,
 * gives its LAN address, so a phone on the same network can open the scanned QR.
 */
export function publicOrigin(request: FastifyRequest, config: Pick<Config, "PUBLIC_URL" | "HOST">): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, "");
  const hostname = request.hostname.replace(/^\[|\]$/g, "");
  const listensEverywhere = config.HOST === "0.0.0.0" || config.HOST === "::";
  const lan = LOOPBACK_HOSTS.has(hostname) && listensEverywhere ? lanAddress() : undefined;
  if (!lan) return `${request.protocol}://${request.host}`;
  const port = request.port ? `:${request.port}` : "";
  return `${request.protocol}://${lan}${port}`;
}
