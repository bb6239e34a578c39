import type { LookupAddress, LookupAllOptions, LookupOneOptions } from "node:dns";
import { lookup as dnsLookup } from "node:dns";
import { lookup as dnsLookupAsync } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { ipv4Of, ipv6Groups } from "@yuelu/runtime";
import { AppError } from "../errors.ts";

/**
 * Where a webhook may be sent (no SSRF): a URL a user types must not reach this server's own
 * network — its loopback, the LAN, the cloud's metadata service. Every address the host resolves to
 * is checked when the endpoint is registered AND at each delivery (DNS may answer differently
 * later: rebinding), and a delivery connects to the very address it checked. WEBHOOK_ALLOW_PRIVATE
 * lifts the rule for operators who trust their network.
 */

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0 (unspecified)
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback (::1), the old IPv4-compatible form
  // local-use NAT64 (RFC 8215): where the IPv4 sits depends on the prefix length the operator chose
  // (RFC 6052 §2.2), so it cannot be read back — and the block is not globally reachable anyway
  ["64:ff9b:1::", 48],
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (private)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  REFUSED.addSubnet(net, prefix, "ipv6");
}

/**
 * The IPv4 addresses carried inside an IPv6 address, for every form a router or this host may turn
 * back into IPv4 — so `::ffff:0:127.0.0.1` or `2002:7f00:1::` cannot smuggle loopback past the rule:
 * - IPv4-mapped `::ffff:a.b.c.d` (RFC 4291) and IPv4-translated `::ffff:0:a.b.c.d` (SIIT, RFC 6145);
 * - well-known NAT64 `64:ff9b::a.b.c.d` (RFC 6052);
 * - 6to4 `2002:AABB:CCDD::/48` (RFC 3056), the IPv4 in bits 16–47;
 * - Teredo `2001:0:SSSS:SSSS::CCCC:CCCC` (RFC 4380): the server's IPv4 in bits 32–63, the client's in the
 *   last 32 bits with every bit flipped.
 */
function embeddedIpv4s(groups: number[]): string[] {
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  if (zero(0, 5) && g5 === 0xffff) return [ipv4Of(g6, g7)];
  if (zero(0, 4) && g4 === 0xffff && g5 === 0) return [ipv4Of(g6, g7)];
  if (g0 === 0x64 && g1 === 0xff9b && zero(2, 6)) return [ipv4Of(g6, g7)];
  if (g0 === 0x2002) return [ipv4Of(g1, g2)];
  if (g0 === 0x2001 && g1 === 0) return [ipv4Of(g2, g3), ipv4Of(g6 ^ 0xffff, g7 ^ 0xffff)];
  return [];
}

/** True for an address a webhook may be sent to: public unicast, not loopback, private, link-local… */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !REFUSED.check(address, "ipv4");
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (!groups) return false; // an address we cannot read is no address to call
  if (!embeddedIpv4s(groups).every(isPublicAddress)) return false;
  try {
    return !REFUSED.check(address.replace(/%.*$/, ""), "ipv6");
  } catch {
    return false; // an address BlockList cannot read is no address to call
  }
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

const REASON_SCHEME = "must be an http(s) URL";
const REASON_UNRESOLVED = "its host does not resolve";
export const REASON_PRIVATE = "points to a private, loopback or link-local address, which this server does not call";

/**
 * Registration: the URL is http(s) and, unless `allowPrivate`, every address of its host is public.
 * Throws 10002 naming `url` otherwise.
 */
export async function assertWebhookTarget(
  raw: string,
  allowPrivate: boolean,
  resolve: (host: string) => Promise<string[]> = resolveAll,
): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw AppError.invalid("url", REASON_SCHEME);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw AppError.invalid("url", REASON_SCHEME);
  if (allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    throw AppError.invalid("url", REASON_UNRESOLVED);
  }
  if (addresses.length === 0) throw AppError.invalid("url", REASON_UNRESOLVED);
  if (!addresses.every(isPublicAddress)) throw AppError.invalid("url", REASON_PRIVATE);
}

async function resolveAll(host: string): Promise<string[]> {
  return (await dnsLookupAsync(host, { all: true, verbatim: true })).map((a) => a.address);
}

/** Raised at delivery when the target's address is not public. */
export class RefusedAddressError extends Error {
  readonly code = "EWEBHOOKADDRESS";
  constructor(address: string) {
    super(`refused: ${address} is not a public address (WEBHOOK_ALLOW_PRIVATE is off)`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses non-public addresses: the connection goes to an address
 * this function checked, so a DNS answer that changes between the check and the connect cannot slip
 * through. (An IP literal in the URL skips lookup: check it with isPublicAddress before.)
 */
export function publicOnlyLookup(
  hostname: string,
  options: LookupOneOptions | LookupAllOptions,
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) return callback(new RefusedAddressError(refused.address), []);
    if (addresses.length === 0) return callback(new Error(`${hostname} has no address`), []);
    if ((options as LookupAllOptions).all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
